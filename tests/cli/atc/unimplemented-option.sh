# An option asc-tools does not support yet is refused (E10055), unless it carries its default.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --is_input_adjust_hw_layout=true
expect_exit 255
expect_stdout_contains "E10055"
expect_stdout_contains "--is_input_adjust_hw_layout"
expect_no_file m.om
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --disable_reuse_memory=0
expect_exit 0
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m2 --soc_version=Ascend310 --input_hint_shape="x:1,3,8,8"
expect_exit 255
expect_stdout_contains "E10055"
expect_stdout_contains "--input_hint_shape=x:1,3,8,8"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m2 --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
run atc --mode=5 --om=m.om --json=m.json
expect_exit 255
expect_stdout_contains "E10055"
run atc --mode=9 --om=m.om
expect_exit 255
expect_stdout_contains "E10001"
