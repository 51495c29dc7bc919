# One altered byte fails the checksum; a file that is not an OM has a bad magic.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
expect_exit 0
cp m.om bad.om
printf '\x5a' | dd of=bad.om bs=1 seek=900 conv=notrunc 2>/dev/null
run atc --mode=6 --om=bad.om
expect_exit 255
expect_stdout_contains "E10041"
expect_stdout_contains "checksum mismatch"
run atc --mode=6 --om="$DATA/tiny_conv.onnx"
expect_exit 255
expect_stdout_contains "bad magic"
