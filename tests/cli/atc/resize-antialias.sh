# Resize-18 antialias=1 (issue 31): downscaling through a linear or cubic filter stretched by
# 1 / scale, on x [1, 2, 9, 11], matches a numpy formula of ONNX's definition
# (tests/testkit/make_resize_antialias.py) for scales and sizes, half_pixel, pytorch_half_pixel,
# align_corners and asymmetric coordinates, exclude_outside, one axis up and the other down, and
# an upscale (where antialias changes nothing); under force_fp32 and the default fp16 mode. The OM
# keeps ONNX's Resize with the antialias attribute (CANN's ResizeBilinearV2D has none). Where
# onnxruntime-node is installed, ONNX Runtime's outputs are checked against the same formula.
PY=/usr/bin/python3
[ -x "$PY" ] && command -v protoc >/dev/null || skip "needs /usr/bin/python3 and protoc"
$PY -c "import numpy" 2>/dev/null || skip "needs python3-numpy"
count=$($PY "$ROOT/tests/testkit/make_resize_antialias.py" /usr/include/onnx/onnx.proto .) ||
  fail "could not write the model"
# force_fp32 to 1e-5; the default fp16 mode to 1e-2 (fp16's rounding).
for run_case in aa:--precision_mode=force_fp32:1e-5 aa16::1e-2; do
  IFS=: read -r om mode tol <<<"$run_case"
  run atc --model=aa.onnx --framework=5 --output=$om --soc_version=Ascend310 $mode
  expect_exit 0
  run msame --model $om.om --input x.bin --output out_$om
  expect_exit 0
  for i in $(seq 0 $((count - 1))); do
    expect_close_npy "$(ls out_$om/*/${om}_output_$i.bin)" expect_aa_$i.bin "$tol"
  done
done
run atc --mode=1 --om=aa.om --json=aa.json
expect_exit 0
CHECKS=$((CHECKS + 1))
grep -q '"antialias"' aa.json || fail "the OM lost the antialias attribute"
if command -v node >/dev/null && [ -d "$ROOT/scripts/bench/node_modules/onnxruntime-node" ]; then
  run node "$ROOT/scripts/bench/ort_tool.js" run aa.onnx x.npy ort 1 1
  expect_exit 0
  for i in $(seq 0 $((count - 1))); do
    expect_close_npy ort_$i.bin expect_aa_$i.bin 1e-5
  done
else
  echo "[note] onnxruntime-node is not installed: the ONNX Runtime cross-check did not run"
fi
