# --loop N runs N times (same result as one run); the real cap of 100, and --max_loop to lift it.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
awk 'BEGIN { for (i = 0; i < 192; i++) printf "%c%c%c%c", 0, 0, 128 + i % 64, 63 }' > in.bin
run msame --model m.om --input in.bin --output one
expect_exit 0
run msame --model m.om --input in.bin --output three --loop 3
expect_exit 0
[ "$(grep -c '^Inference time: ' "$STDOUT")" = 3 ] || fail "expected 3 'Inference time' lines"
expect_stdout_contains "Inference average time without first time: "
cmp one/*/m_output_0.bin three/*/m_output_0.bin || fail "loop output differs from one run"
run msame --model m.om --loop 101
expect_exit 1
expect_stdout_contains "loop must in 1 to 100"
run msame --model m.om --loop 150 --max_loop 200
expect_exit 0
[ "$(grep -c '^Inference time: ' "$STDOUT")" = 150 ] || fail "expected 150 runs"
