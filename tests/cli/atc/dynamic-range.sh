# --input_shape_range: one OM runs any H and W in 64..256. At three sizes msame --dymShape gives
# the outputs a static OM of that size gives on the same inputs; each size is compiled once
# (its first run), and a size outside the range is refused naming the range.
MODEL="$ROOT/models/resnet_mini.onnx"
common=(--framework=5 --soc_version=Ascend310P3 --precision_mode=force_fp32)
run atc --model="$MODEL" "${common[@]}" --output=rng --input_shape_range="input:[1,3,64~256,64~256]"
expect_exit 0
run atc --mode=6 --om=rng.om
expect_stdout_contains "dynamic  info: type[range], input_shape_range[[1,3,64~256,64~256]]"
# The same through ranges in --input_shape (current GE's syntax).
run atc --model="$MODEL" "${common[@]}" --output=rng2 --input_shape="input:1,3,64~256,64~256"
expect_exit 0
for hw in 64,64 128,96 224,256; do
  h=${hw%,*} w=${hw#*,}
  run atc --model="$MODEL" "${common[@]}" --output="s${h}x$w" --input_shape="input:1,3,$h,$w"
  expect_exit 0
  /usr/bin/python3 -c "import numpy as np; np.random.default_rng($h).uniform(-1, 1, (1, 3, $h, $w)).astype(np.float32).tofile('in${h}x$w.bin')" || fail "numpy"
  run msame --model rng.om --dymShape "input:1,3,$h,$w" --outputSize 4000 --input "in${h}x$w.bin" \
    --output "d${h}x$w"
  expect_exit 0
  run msame --model "s${h}x$w.om" --input "in${h}x$w.bin" --output "s${h}x$w"
  expect_exit 0
  cmp d${h}x$w/*/rng_output_0.bin s${h}x$w/*/s${h}x${w}_output_0.bin ||
    fail "${h}x$w: the range OM's output differs from the static OM's"
done
run msame --model rng.om --dymShape "input:1,3,300,64" --outputSize 4000 --input in64x64.bin \
  --output bad
expect_exit 1
expect_stdout_contains "outside the range 64~256"
# --dymShape needs --outputSize (as the real msame), and an output larger than it is an error.
run msame --model rng.om --dymShape "input:1,3,64,64" --input in64x64.bin
expect_exit 1
expect_stdout_contains "--outputSize"
run msame --model rng.om --dymShape "input:1,3,64,64" --outputSize 8 --input in64x64.bin
expect_exit 1
expect_stdout_contains "more than --outputSize"
