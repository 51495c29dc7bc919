# The comparison names the likely cause of the first divergence and the fix, for each cause the
# small CNNs break fp16 with, and --html writes a self-contained page that renders in headless
# Chromium (both charts laid out, one point per layer), with the first failing layer marked.
PY=/usr/bin/python3
$PY -c "import onnx" 2>/dev/null || skip "needs python3-onnx (scripts/install-deps.sh --test installs it)"
$PY "$ROOT/tests/testkit/make_fp16_breakers.py" m || fail "could not write the models"
check() {  # model, expected cause, node to keep[, minimum cosine]
  run env BIN="$(dirname "$(command -v atc)")" OUT="pc_$1" MIN_COSINE="${4:-0.99}" \
    "$ROOT/scripts/precision-check.sh" "m/$1.onnx" m/x.npy
  expect_exit 1
  expect_stdout_contains "likely cause          $2"
  expect_stdout_contains "fix                   keep '$3'"
  expect_file "pc_$1/report.html"
}
check rms_square "fp16 overflow" square
check offset_mean "loss in a large-offset subtraction" center
check underflow "fp16 underflow" scale_down
check softmax_logits "a precision-sensitive op (SoftmaxV2)" softmax 0.999
grep -q "first failing: center output 0" pc_offset_mean/report.html || fail "first failing layer not marked"
grep -q "<script src\|<link " pc_offset_mean/report.html && fail "the page loads external files"
# JSON carries the advice too
n=$(find "$PWD/pc_underflow/npu/dump" -mindepth 5 -maxdepth 5 -type d -name 0)
g=$(find "$PWD/pc_underflow/golden/dump" -mindepth 5 -maxdepth 5 -type d -name 0)
run mscompare -m "$n" -g "$g" -f pc_underflow/model/underflow.json --atol 1 --rtol 1 --min_cosine 0.99 --format json -out j
expect_exit 1
$PY -c "import json; r=json.load(open('$STDOUT')); assert r['advice']['cause'].startswith('fp16 underflow'), r['advice']" ||
  fail "JSON advice"
# An fp32 comparison that passes gets no advice
run mscompare -m "$g" -g "$g" -out k
expect_exit 0
expect_stdout_not_contains "likely cause"
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || skip "chromium is not installed (scripts/install-deps.sh --test installs it)"
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync)
run timeout 120 "$browser" "${flags[@]}" --user-data-dir="$TMP/chrome" --dump-dom "file://$PWD/pc_offset_mean/report.html"
expect_exit 0
rendered=$(grep -o 'data-rendered="[^"]*"' "$STDOUT") || fail "page script did not run"
echo "$rendered"
for id in cosine maxrel; do
  echo "$rendered" | grep -Eq "$id:[1-9][0-9]*:[1-9][0-9]*x[1-9][0-9]*" || fail "$id not rendered: $rendered"
done
