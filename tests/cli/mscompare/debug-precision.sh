# mscompare debug_precision finds the --keep_dtype lines that fix each small CNN fp16 storage
# breaks (an overflowing square, a mean subtraction after a large offset, an underflow, a
# Softmax over logits near 1000), within
# a bounded number of rounds. The fix is then checked independently of the search: atc with the
# keep_dtype.cfg it wrote, msame, and mscompare against the fp32 run (and without it, the same
# comparison fails). A model fp16 does not break gets "nothing to do", exit 0 and an empty list.
PY=/usr/bin/python3
$PY -c "import onnx" 2>/dev/null || skip "needs python3-onnx (scripts/install-deps.sh --test installs it)"
$PY "$ROOT/tests/testkit/make_fp16_breakers.py" m || fail "could not write the models"
# The fp32 reference output of a model, by msame on the ONNX model itself.
golden() {
  run msame --model "m/$1.onnx" --input m/x.npy --output "g_$1" --outfmt BIN
  expect_exit 0
  ls "$PWD"/g_"$1"/*/"$1"_output_0.bin
}
for model in rms_square offset_mean underflow softmax_logits; do
  run mscompare debug_precision --model "m/$model.onnx" --input m/x.npy --output "d_$model" \
    --target_cosine 0.999
  expect_exit 0
  expect_stdout_contains "round  phase"
  expect_stdout_contains "target reached"
  expect_file "d_$model/keep_dtype.cfg"
  expect_file "d_$model/report.json"
  $PY - "d_$model/report.json" <<'PYEOF' || fail "report.json of $model"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["reached"] and not r["round_limit"], r
assert 1 <= len(r["keep"]) <= 4, r["keep"]
assert r["final_cosine"] >= 0.999, r["final_cosine"]
# 2 + 2 ceil(log2 n) rounds find the window, pruning it costs at most 2 per window node (these
# models: 5 to 7 candidates, 3 or 4 needed)
import math
n = r["candidates"]
assert r["rounds"] == len(r["steps"]) <= 2 + 2 * math.ceil(math.log2(n)) + 2 * len(r["keep"]), r
phases = [s["phase"] for s in r["steps"]]
assert phases[:2] == ["baseline", "all fp32"] and "window end" in phases, phases
assert r["steps"][0]["phase"] == "baseline" and not r["steps"][0]["passed"]
PYEOF
  ref=$(golden "$model")
  for keep in with without; do
    extra=()
    [ "$keep" = with ] && extra=(--keep_dtype="d_$model/keep_dtype.cfg")
    run atc --model="m/$model.onnx" --framework=5 --output="om_${model}_$keep" \
      --soc_version=Ascend310P3 --precision_mode=force_fp16 "${extra[@]}"
    expect_exit 0
    run msame --model "om_${model}_$keep.om" --input m/x.npy --output "r_${model}_$keep" --outfmt BIN
    expect_exit 0
    out=$(ls "$PWD"/r_"${model}_$keep"/*/"om_${model}_${keep}"_output_0.bin)
    run mscompare -m "$out" -g "$ref" --min_cosine 0.999 --atol 1 --rtol 1 -out "cmp_${model}_$keep"
    if [ "$keep" = with ]; then expect_exit 0; else expect_exit 1; fi
  done
done
# The overflow fix keeps the whole chain that holds the squares: square, mean, epsilon, sqrt.
[ "$(sort d_rms_square/keep_dtype.cfg | tr '\n' ' ')" = "add_eps mean_sq rms square " ] ||
  fail "rms_square keep set: $(cat d_rms_square/keep_dtype.cfg)"
run mscompare debug_precision --model m/fine.onnx --input m/x.npy --output d_fine
expect_exit 0
expect_stdout_contains "nothing to do"
[ -f d_fine/keep_dtype.cfg ] && [ ! -s d_fine/keep_dtype.cfg ] || fail "fine: keep_dtype.cfg should be empty"
# Random inputs (no --input) work too, and --max_rounds stops a search early with a set that
# passes (not minimal): exit 0, round_limit true.
run mscompare debug_precision --model m/rms_square.onnx --output d_limit --max_rounds 3
expect_exit 0
expect_stdout_contains "stopped at --max_rounds"
grep -q '"round_limit": true' d_limit/report.json || fail "round_limit not recorded"
