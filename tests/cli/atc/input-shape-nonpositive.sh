# A zero or negative dim: E1001 naming the input.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --input_shape="input:1,0,8,8"
expect_exit 255
expect_stdout_contains "E1001"
expect_stdout_contains "input 'input'"
expect_no_file m.om
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --input_shape="input:1,x,8,8"
expect_exit 255
expect_stdout_contains "E10002"
