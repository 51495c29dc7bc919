# An .om runs with all-zero inputs: the real msame's lines, a summary line, one output file.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
expect_exit 0
run msame --model m.om --output out
expect_exit 0
expect_stdout_line "[INFO] acl init success"
expect_stdout_line "[INFO] load model m.om success"
expect_stdout_contains "Inference time: "
expect_stdout_contains "Inference average time: "
expect_stdout_not_contains "without first time"
expect_stdout_contains "[INFO] summary: load_ms="
expect_stdout_contains "median_ms="
expect_stdout_contains "Execute sample success"
grep -qE '^out/[0-9]+_[0-9]+_[0-9]+_[0-9]+_[0-9]+$' "$STDOUT" || fail "no timestamped output folder line"
f=$(ls out/*/m_output_0.bin)
[ "$(stat -c %s "$f")" = 1024 ] || fail "output is $(stat -c %s "$f") bytes, expected 1*4*8*8*4"
