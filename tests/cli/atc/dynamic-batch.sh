# --dynamic_batch_size: one OM holds batches 1, 2, 4 and 8 (compiled at load, not per run). At
# each batch msame --dymBatch gives the outputs a static OM compiled for that batch gives on the
# same inputs; batch 3 is refused with the list of batches; --mode=6 shows the profiles.
MODEL="$ROOT/models/resnet_mini.onnx"
common=(--framework=5 --soc_version=Ascend310P3 --precision_mode=force_fp32)
run atc --model="$MODEL" "${common[@]}" --output=dyn --input_shape="input:-1,3,224,224" \
  --dynamic_batch_size="1,2,4,8"
expect_exit 0
expect_file dyn.om
run atc --mode=6 --om=dyn.om
expect_stdout_contains "dynamic  info: type[batch], input_shape_range[[1~8,3,224,224]]"
expect_stdout_contains "gears[1,3,224,224 | 2,3,224,224 | 4,3,224,224 | 8,3,224,224]"
expect_stdout_contains "inputs[input:float32:[-1,3,224,224]]"
for b in 1 2 4 8; do
  run atc --model="$MODEL" "${common[@]}" --output="static$b" --input_shape="input:$b,3,224,224"
  expect_exit 0
  run msame --model dyn.om --dymBatch "$b" --random_input 7 --output "d$b" --debug true
  expect_exit 0
  expect_stdout_contains "[INFO] --dymBatch $b: input shapes set"
  expect_stdout_contains "output[0] output float32 [$b,"
  run msame --model "static$b.om" --random_input 7 --output "s$b"
  expect_exit 0
  cmp d$b/*/dyn_output_0.bin s$b/*/static${b}_output_0.bin ||
    fail "batch $b: the dynamic OM's output differs from the static OM's"
done
# A batch the model was not compiled for: the allowed ones are listed, nothing is written.
run msame --model dyn.om --dymBatch 3 --random_input 7 --output d3
expect_exit 1
expect_stdout_contains "E1001"
expect_stdout_contains "1, 2, 4, 8"
[ -z "$(find d3 -name '*.bin' 2>/dev/null)" ] || fail "batch 3 wrote outputs"
# The dynamic options belong to dynamic models, and one at a time.
run msame --model static1.om --dymBatch 2
expect_exit 1
expect_stdout_contains "needs a model with dynamic shapes"
run msame --model dyn.om --dymBatch 2 --dymHW 2,2
expect_exit 1
expect_stdout_contains "cannot be set at the same time"
run msame --model dyn.om --dymHW 224,224
expect_exit 1
expect_stdout_contains "--dynamic_image_size"
# The options are in msame's help.
run msame --help
expect_stdout_contains "--dymBatch N"
expect_stdout_contains "--outputSize"
