# A file that is not ONNX: E13005; a missing file: E13001.
run atc --model="$DATA/not_a_model.onnx" --framework=5 --output=m --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E13005"
expect_no_file m.om
run atc --model=nowhere.onnx --framework=5 --output=m --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E13001"
expect_stdout_contains "nowhere.onnx"
