# A valid ONNX model converts: start and success lines, exit 0, the .om is written.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=out/tiny --soc_version=Ascend310
expect_exit 0
expect_stdout_line "ATC start working now, please wait for a moment."
expect_stdout_line "ATC run success, welcome to the next use."
expect_file out/tiny.om
expect_no_file out/tiny
expect_no_temp_files .
