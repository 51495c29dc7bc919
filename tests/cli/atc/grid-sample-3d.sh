# GridSample on volumes (GridSample-20's N-D form, issue 31): x [1, 2, 3, 4, 5] sampled at a
# constant grid [1, 2, 3, 4, 3] in every mode (linear, nearest, cubic), padding mode and
# align_corners matches a numpy loop over ONNX's definition (tests/testkit/make_grid_sample3d.py),
# and the OM names the node GridSampler3D. Where onnxruntime-node is installed, ONNX Runtime's
# outputs are checked against the same loop too (it has no cubic mode on volumes).
PY=/usr/bin/python3
[ -x "$PY" ] && command -v protoc >/dev/null || skip "needs /usr/bin/python3 and protoc"
$PY -c "import numpy" 2>/dev/null || skip "needs python3-numpy"
$PY "$ROOT/tests/testkit/make_grid_sample3d.py" /usr/include/onnx/onnx.proto . ||
  fail "could not write the models"
cat > close.py <<'PY'
import numpy as np, sys
a = np.fromfile(sys.argv[1], np.float32)
b = np.fromfile(sys.argv[2], np.float32)
ok = a.shape == b.shape and np.allclose(a, b, rtol=1e-5, atol=1e-5)
print("close" if ok else "differs: max %s" % (np.abs(a - b).max() if a.shape == b.shape else "-"))
PY
for m in gs3d:12 gs3dc:6; do
  IFS=: read -r name count <<<"$m"
  run atc --model=$name.onnx --framework=5 --output=$name --soc_version=Ascend310 \
    --precision_mode=force_fp32
  expect_exit 0
  run msame --model $name.om --input x.bin --output out_$name
  expect_exit 0
  for i in $(seq 0 $((count - 1))); do
    run $PY close.py expect_${name}_$i.bin "$(ls out_$name/*/${name}_output_$i.bin)"
    expect_stdout_line "close"
  done
done
run atc --mode=1 --om=gs3d.om --json=gs3d.json
expect_exit 0
CHECKS=$((CHECKS + 1))
grep -q '"type": "GridSampler3D"' gs3d.json || fail "the volume's GridSample is not GridSampler3D"
if command -v node >/dev/null && [ -d "$ROOT/scripts/bench/node_modules/onnxruntime-node" ]; then
  run node "$ROOT/scripts/bench/ort_tool.js" run gs3d.onnx x.npy ort 1 1
  expect_exit 0
  for i in $(seq 0 11); do
    run $PY close.py expect_gs3d_$i.bin ort_$i.bin
    expect_stdout_line "close"
  done
else
  echo "[note] onnxruntime-node is not installed: the ONNX Runtime cross-check did not run"
fi
