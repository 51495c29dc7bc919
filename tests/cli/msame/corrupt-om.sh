# A damaged .om is refused with E10041, never a crash.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
head -c 500 m.om > cut.om
run msame --model cut.om
expect_exit 1
expect_stdout_contains "E10041"
cp m.om bad.om
printf '\x11\x22' | dd of=bad.om bs=1 seek=700 conv=notrunc 2>/dev/null
run msame --model bad.om
expect_exit 1
expect_stdout_contains "checksum mismatch"
