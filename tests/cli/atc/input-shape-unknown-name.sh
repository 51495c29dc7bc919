# --input_shape naming an input the model lacks: E1001, naming it and listing the real inputs.
run atc --model="$DATA/two_inputs.onnx" --framework=5 --output=m --soc_version=Ascend310 --input_shape="c:1,3,4,4"
expect_exit 255
expect_stdout_line "ATC run failed, Please check the detail log, Try 'atc --help' for more information"
expect_stdout_contains "E1001"
expect_stdout_contains "'c'"
expect_stdout_contains "a, b"
expect_no_file m.om
