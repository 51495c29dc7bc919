# atc plans the activation arena with reuse (arena = peak of live bytes here), records it in the
# OM and --mode=6 shows it; --disable_reuse_memory=1 lays tensors end to end; E3003 when the
# model cannot fit the chip, with both sizes.
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=reuse --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
run atc --mode=6 --om=reuse.om
arena=$(sed -n 's/.*arena\[\([0-9]*\) B\].*/\1/p' "$STDOUT")
peak=$(sed -n 's/.*peak_live\[\([0-9]*\) B\].*/\1/p' "$STDOUT")
[ -n "$arena" ] && [ -n "$peak" ] || fail "no memory info line"
[ "$arena" -le $(( peak * 105 / 100 )) ] || fail "arena $arena exceeds 1.05 x peak live $peak"
expect_stdout_contains "reuse[on]"
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=noreuse --soc_version=Ascend310 --precision_mode=force_fp32 --disable_reuse_memory=1
expect_exit 0
run atc --mode=6 --om=noreuse.om
expect_stdout_contains "reuse[off]"
arena2=$(sed -n 's/.*arena\[\([0-9]*\) B\].*/\1/p' "$STDOUT")
[ "$arena2" -gt "$arena" ] || fail "no-reuse arena $arena2 is not larger than $arena"
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=bad --soc_version=Ascend310 --disable_reuse_memory=2
expect_exit 255
expect_stdout_contains "E10001"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=huge --soc_version=Ascend310 --precision_mode=force_fp32 --input_shape="input:1,3,30000,30000"
expect_exit 255
expect_stdout_contains "E3003"
expect_stdout_contains "bytes of activations"
expect_stdout_contains "8589934592 bytes of Ascend310"
expect_no_file huge.om
