# A wrong number of dims: E1001 naming the input and both ranks.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --input_shape="input:1,3,8"
expect_exit 255
expect_stdout_contains "E1001"
expect_stdout_contains "input 'input' 3 dims"
expect_stdout_contains "has 4"
expect_no_file m.om
