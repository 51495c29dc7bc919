# A failed run leaves no partial file, and an existing .om from an earlier run stays intact.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
expect_exit 0
cp m.om before.om
run atc --model="$DATA/unsupported_op.onnx" --framework=5 --output=m --soc_version=Ascend310
expect_exit 255
cmp -s m.om before.om || fail "m.om changed after a failed run"
expect_no_temp_files .
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=/proc/no/such/m --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E13002"
