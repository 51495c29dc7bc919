# Weights stored as ONNX external data convert like inline ones (same weight bytes).
run atc --model="$DATA/tiny_external.onnx" --framework=5 --output=ext --soc_version=Ascend310
expect_exit 0
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=inl --soc_version=Ascend310
run atc --mode=6 --om=ext.om
expect_stdout_contains "weight_size[576 B]"
cp "$DATA/tiny_external.onnx" moved.onnx
run atc --model=moved.onnx --framework=5 --output=moved --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "external data"
expect_no_file moved.om
