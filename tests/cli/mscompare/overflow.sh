# mscompare overflow lists the layers of an OM's dump whose fp16 outputs overflowed, first one
# first, with the source nodes of fused ops, and exits 1; a dump with no overflow exits 0; a
# folder without dump files is an error (exit 2).
PY=/usr/bin/python3
$PY -c "import onnx" 2>/dev/null || skip "needs python3-onnx (scripts/install-deps.sh --test installs it)"
$PY "$ROOT/tests/testkit/make_fp16_breakers.py" m || fail "could not write the models"
dump() {
  run atc --model="m/$1.onnx" --framework=5 --output="$1" --soc_version=Ascend310P3 --precision_mode=force_fp16
  expect_exit 0
  run msame --model "$1.om" --input m/x.npy --output "run_$1" --dump true
  expect_exit 0
  find "$PWD/run_$1/dump" -mindepth 5 -maxdepth 5 -type d -name 0
}
d=$(dump rms_square)
run mscompare overflow -m "$d"
expect_exit 1
expect_stdout_contains "square overflowed first"
# the first listed layer is the square; the mean, epsilon Add and Sqrt after it are listed too
first=$(awk '$1 == "1" {print $2}' "$STDOUT")
[ "$first" = square ] || fail "first overflowed layer '$first', expected square"
expect_stdout_contains "mean_sq"
run mscompare overflow -m "$d" --format json
expect_exit 1
$PY -c "import json,sys; r=json.load(open('$STDOUT')); assert r['first']=='square' and r['overflowed']>=4 and r['layers'][0]['inf']>0, r" ||
  fail "overflow JSON"
d=$(dump fused_relu)
run mscompare overflow -m "$d"
expect_exit 1
expect_stdout_contains "conv1,relu1"
d=$(dump fine)
run mscompare overflow -m "$d"
expect_exit 0
expect_stdout_contains "no output overflowed"
run mscompare overflow -m m
expect_exit 2
expect_stderr_contains "no dump file"
run mscompare overflow
expect_exit 2
expect_stderr_contains "-m (--my_dump_path) is required"
