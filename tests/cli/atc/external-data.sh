# Weights stored as ONNX external data convert like inline ones (same weight bytes).
run atc --model="$DATA/tiny_external.onnx" --framework=5 --output=ext --soc_version=Ascend310
expect_exit 0
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=inl --soc_version=Ascend310
# Same weights: both models give the same outputs for the same input.
awk 'BEGIN { for (i = 0; i < 192; i++) printf "%c%c%c%c", 0, 0, 128 + i % 64, 63 }' > in.bin
run msame --model ext.om --input in.bin --output out_ext
expect_exit 0
run msame --model inl.om --input in.bin --output out_inl
expect_exit 0
cmp out_ext/*/ext_output_0.bin out_inl/*/inl_output_0.bin || fail "external-data model computes differently"
cp "$DATA/tiny_external.onnx" moved.onnx
run atc --model=moved.onnx --framework=5 --output=moved --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "external data"
expect_no_file moved.om
