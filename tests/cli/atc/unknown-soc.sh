# An unknown chip: E10001 listing the known ones; an empty one: E10004.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend999
expect_exit 255
expect_stdout_contains "E10001"
expect_stdout_contains "Ascend999"
expect_stdout_contains "Ascend310, Ascend310B1"
expect_stdout_contains "Ascend910B4"
expect_no_file m.om
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m
expect_exit 255
expect_stdout_contains "E10004"
expect_stdout_contains "--soc_version"
