# The ten benchmark models and the two recurrent ones (scripts/bench/export_models.py) compiled with
# --precision_mode=force_fp32 match ONNX Runtime: cosine >= 0.99999 and
# max |diff| <= 1e-4 * max |reference|. Runs when the models and onnxruntime-node are present
# (bench-models/ and scripts/bench/node_modules/); otherwise it is reported as skipped.
if [ ! -d "$ROOT/bench-models" ] || [ ! -d "$ROOT/scripts/bench/node_modules/onnxruntime-node" ]; then
  skip "no bench-models/ or onnxruntime-node (run scripts/bench/export_models.py and" \
       "scripts/bench/msame_vs_ort.sh once to get them)"
fi
run env ACCURACY_ONLY=1 BUILD_DIR="$(dirname "$BIN")" BENCH_OUT="$TMP/bench" \
  "$ROOT/scripts/bench/msame_vs_ort.sh"
expect_exit 0
expect_stdout_not_contains "FAIL"
expect_stdout_contains "resnet50"
expect_stdout_contains "transformer"
# The recurrent nets of issue 14: a 2-layer nn.LSTM and a bidirectional nn.GRU at opset 13.
run env ACCURACY_ONLY=1 BUILD_DIR="$(dirname "$BIN")" BENCH_OUT="$TMP/bench-rnn" \
  "$ROOT/scripts/bench/msame_vs_ort.sh" lstm2 bigru
expect_exit 0
expect_stdout_not_contains "FAIL"
expect_stdout_contains "lstm2                1.0000000"
expect_stdout_contains "bigru                1.0000000"
