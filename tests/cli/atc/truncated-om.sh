# A truncated .om is rejected with E10041 by --mode=6 and --mode=1, which writes no JSON.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
expect_exit 0
head -c 700 m.om > cut.om
run atc --mode=6 --om=cut.om
expect_exit 255
expect_stdout_contains "E10041"
expect_stdout_contains "truncated"
run atc --mode=1 --om=cut.om --json=cut.json
expect_exit 255
expect_no_file cut.json
head -c 100 m.om > tiny.om
run atc --mode=6 --om=tiny.om
expect_exit 255
expect_stdout_contains "less than the 256-byte OM header"
