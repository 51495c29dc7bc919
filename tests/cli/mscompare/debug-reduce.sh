# mscompare debug_reduce cuts the smallest connected part of each fp16-broken model that still
# diverges: reduced.onnx passes onnx.checker, and converting it with the same options and running
# it on input_<i>.npy reproduces the divergence against golden_<i>.npy (mscompare fails), while
# at force_fp32 it matches. A model fp16 does not break gets "nothing diverges", exit 1 and no
# reduced.onnx.
PY=/usr/bin/python3
$PY -c "import onnx" 2>/dev/null || skip "needs python3-onnx (scripts/install-deps.sh --test installs it)"
$PY "$ROOT/tests/testkit/make_fp16_breakers.py" m || fail "could not write the models"
for model in rms_square offset_mean underflow softmax_logits; do
  run mscompare debug_reduce --model "m/$model.onnx" --input m/x.npy --output "d_$model"
  expect_exit 0
  expect_stdout_contains "first diverging"
  expect_file "d_$model/reduced.onnx"
  expect_file "d_$model/golden_0.npy"
  expect_file "d_$model/input_0.npy"
  $PY - "d_$model" <<'PYEOF' || fail "reduced.onnx of $model does not pass onnx.checker"
import sys, onnx
m = onnx.load(sys.argv[1] + "/reduced.onnx")
onnx.checker.check_model(m, full_check=True)
full = onnx.load("m/" + sys.argv[1][2:] + ".onnx")
assert len(m.graph.node) < len(full.graph.node), (len(m.graph.node), len(full.graph.node))
PYEOF
  inputs=$(ls d_"$model"/input_*.npy | sort | paste -sd, -)
  for mode in force_fp16 force_fp32; do
    run atc --model="d_$model/reduced.onnx" --framework=5 --output="red_${model}_$mode" \
      --soc_version=Ascend310P3 --precision_mode=$mode
    expect_exit 0
    run msame --model "red_${model}_$mode.om" --input "$inputs" --output "run_${model}_$mode" --outfmt BIN
    expect_exit 0
    out=$(ls "$PWD"/run_"${model}_$mode"/*/"red_${model}_${mode}"_output_0.bin)
    run mscompare -m "$out" -g "d_$model/golden_0.npy" --min_cosine 0.999 --atol 1 --rtol 1 -out "c_${model}_$mode"
    if [ $mode = force_fp16 ]; then expect_exit 1; else expect_exit 0; fi
  done
done
grep -q '"nodes": \["square"\]' d_rms_square/report.json || fail "rms_square: the cut should be the square alone"
run mscompare debug_reduce --model m/fine.onnx --input m/x.npy --output d_fine
expect_exit 1
expect_stdout_contains "nothing diverges"
expect_no_file d_fine/reduced.onnx
expect_file d_fine/report.json
