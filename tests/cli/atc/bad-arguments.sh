# Invalid --log, missing or unsupported --framework (1, MindSpore), an unknown option, an output without a name.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --log=loud
expect_exit 255
expect_stdout_contains "E10010"
run atc --model="$DATA/tiny_conv.onnx" --output=m --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E10007"
expect_stdout_contains "5(Onnx)"
run atc --model="$DATA/tiny_conv.onnx" --framework=1 --output=m --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E10055"
expect_stdout_contains "MindSpore"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --no_such_option=1
expect_exit 255
expect_stdout_contains "E10001"
run atc --framework=5 --output=m --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E10004: Value for --model is empty."
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=out/ --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E10022"
