# Bad input to debug_precision / debug_reduce gets a clear error, exit 2 and no output folder:
# a missing model, inputs of the wrong shape or count, a target above 1, a mode that keeps
# everything fp32, an option of the other subcommand, a positional argument.
PY=/usr/bin/python3
$PY -c "import onnx" 2>/dev/null || skip "needs python3-onnx (scripts/install-deps.sh --test installs it)"
$PY "$ROOT/tests/testkit/make_fp16_breakers.py" m || fail "could not write the models"
$PY -c "import numpy as np; np.save('small.npy', np.zeros((1, 4, 4, 4), np.float32)); np.save('f64.npy', np.zeros((1, 4, 8, 8)))"
for cmd in debug_precision debug_reduce; do
  run mscompare $cmd --model nothere.onnx --input m/x.npy --output o1
  expect_exit 2
  expect_stderr_contains "E13001"
  expect_stderr_contains "nothere.onnx"
  expect_no_file o1
  run mscompare $cmd --model m/fine.onnx --input small.npy --output o2
  expect_exit 2
  expect_stderr_contains "E1001"
  expect_stderr_contains "[1,4,4,4]"
  expect_no_file o2
  run mscompare $cmd --model m/fine.onnx --input f64.npy --output o2b
  expect_exit 2
  expect_stderr_contains "float64"
  expect_no_file o2b
  run mscompare $cmd --model m/fine.onnx --input m/x.npy,m/x.npy --output o3
  expect_exit 2
  expect_stderr_contains "gives 2 files, the model has 1 inputs (x)"
  expect_no_file o3
  run mscompare $cmd --model m/fine.onnx --input m/x.npy --output o4 --target_cosine 1.5
  expect_exit 2
  expect_stderr_contains "E10001"
  expect_stderr_contains "--target_cosine"
  expect_no_file o4
  run mscompare $cmd --model m/fine.onnx --output o5 --precision_mode force_fp32
  expect_exit 2
  expect_stderr_contains "--precision_mode"
  expect_no_file o5
  run mscompare $cmd --model m/fine.onnx --output o6 extra
  expect_exit 2
  expect_stderr_contains "positional"
  expect_no_file o6
  run mscompare $cmd --input m/x.npy --output o7
  expect_exit 2
  expect_stderr_contains "--model is required"
  run mscompare $cmd --help
  expect_exit 0
  expect_stdout_contains "usage: mscompare $cmd"
done
run mscompare debug_reduce --model m/fine.onnx --output o8 --max_rounds 5
expect_exit 2
expect_stderr_contains "unrecognized argument: --max_rounds"
expect_no_file o8
touch afile
run mscompare debug_precision --model m/fine.onnx --output afile
expect_exit 2
expect_stderr_contains "it is a file"
