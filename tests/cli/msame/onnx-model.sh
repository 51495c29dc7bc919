# msame runs an .onnx directly (fp32, no fusion): the golden side of a comparison. Same input,
# same numbers as the compiled .om here (Relu is exact, fused or not).
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --precision_mode=force_fp32
awk 'BEGIN { for (i = 0; i < 192; i++) printf "%c%c%c%c", 0, 0, 128 + i % 64, 63 }' > in.bin
run msame --model m.om --input in.bin --output om
expect_exit 0
run msame --model "$DATA/tiny_conv.onnx" --input in.bin --output onnx
expect_exit 0
cmp om/*/m_output_0.bin onnx/*/tiny_conv_output_0.bin || fail "the .onnx and .om outputs differ"
run msame --model "$DATA/dynamic_batch.onnx"
expect_exit 1
expect_stdout_contains "E1001"
run msame --model "$DATA/dynamic_batch.onnx" --input_shape "x:2,3,4,4" --output dyn
expect_exit 0
[ "$(stat -c %s dyn/*/dynamic_batch_output_0.bin)" = 384 ] || fail "expected 2*3*4*4 floats"
