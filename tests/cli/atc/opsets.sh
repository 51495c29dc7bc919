# Opset 7 models convert; the shape chain PyTorch exports folds away.
run atc --model="$DATA/tiny_conv_opset7.onnx" --framework=5 --output=m7 --soc_version=Ascend310
expect_exit 0
run atc --model="$DATA/shape_chain.onnx" --framework=5 --output=sc --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
run atc --mode=6 --om=sc.om
expect_stdout_contains "ops[2]"
expect_stdout_contains "outputs[y:float32:[2,10]]"
