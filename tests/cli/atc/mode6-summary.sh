# --mode=6 prints the real tool's block, with our sizes: Conv+Relu fused between two TransData
# nodes (NCHW <-> NC1HWC0); at most the 768-byte NC1HWC0 input and the 1024-byte output live.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310P3 --precision_mode=force_fp32
run atc --mode=6 --om=m.om
expect_exit 0
expect_stdout_line "============ Display Model Info start ============"
expect_stdout_contains "Original Atc command line: atc --model="
expect_stdout_contains "soc_version[Ascend310P3], framework_type[Onnx]."
expect_stdout_contains "resource info: memory_size[2048 B], weight_size["
expect_stdout_contains "], stream_num[1], event_num[0]."
# weight_size is the WEIGHTS_DATA partition's size
ws=$(sed -n 's/.*weight_size\[\([0-9]*\) B\].*/\1/p' "$STDOUT")
wd=$(sed -n 's/.*weight_data_size\[\([0-9]*\) B\].*/\1/p' "$STDOUT")
[ -n "$ws" ] && [ "$ws" = "$wd" ] || fail "weight_size $ws differs from weight_data_size $wd"
expect_stdout_contains "om       info: modeldef_size["
expect_stdout_line "============ Display Model Info end   ============"
