# Build options beyond the basics: --out_nodes, --save_original_model, --op_name_map, and the
# NPU-only settings that are checked and recorded (--core_type, --enable_small_channel,
# --buffer_optimize, --op_select_implmode).
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=cut --soc_version=Ascend310 --precision_mode=force_fp32 --out_nodes="conv1:0"
expect_exit 0
run atc --mode=6 --om=cut.om
expect_stdout_contains "ops[3]"  # TransData, Conv, TransData: the Relu is gone
expect_stdout_contains "outputs[c:float32:[1,4,8,8]]"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=x --soc_version=Ascend310 --out_nodes="nope:0"
expect_exit 255
expect_stdout_contains "E10016"
expect_stdout_contains "'nope'"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=both --soc_version=Ascend310 --precision_mode=force_fp32 --save_original_model=true
expect_exit 0
expect_file both.om
expect_file both_original.om
run atc --mode=6 --om=both_original.om
expect_stdout_contains "ops[2]"
run atc --mode=6 --om=both.om
expect_stdout_contains "ops[3]"  # Conv+Relu fused, between two TransData
run atc --model="$DATA/custom_relu.onnx" --framework=5 --output=c --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E2002"
printf 'MyRelu:Relu\n' > map.txt
run atc --model="$DATA/custom_relu.onnx" --framework=5 --output=c --soc_version=Ascend310 --op_name_map=map.txt
expect_exit 0
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=v --soc_version=Ascend310 --core_type=VectorCore
expect_exit 255
expect_stdout_contains "Cube operators"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=v --soc_version=Ascend310 --enable_small_channel=2
expect_exit 255
expect_stdout_contains "E10006"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=v --soc_version=Ascend310 --buffer_optimize=fast
expect_exit 255
expect_stdout_contains "E10001"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=ok --soc_version=Ascend310 --op_select_implmode=high_precision --optypelist_for_implmode=Conv --enable_small_channel=1 --log=info
expect_exit 0
expect_stderr_contains "the CPU runtime is unaffected"
