# The float8 types (opset 19) and int4/uint4 (opset 21), issue 31: models written by
# tests/testkit/make_narrow_types.py (protoc; Debian's onnx 1.12 knows neither type) convert and
# run to exactly what numpy formulas of the ONNX definitions give: Cast to each float8 type and
# back with saturate 1 and 0 (specials, midpoints, extremes, subnormals), QuantizeLinear-19 to
# float8 and back, an int4 weight with blocked scale and zero point under a MatMul, QuantizeLinear
# to uint4, uint4 stored as int32_data, Cast-21 to int4/uint4, and an int4 graph input fed from
# an int8 .npy (a value outside [-8, 7] is refused). Relu on a float8 tensor is refused naming
# the node and the type. Where onnxruntime-node is installed (scripts/bench), ONNX Runtime's
# outputs are checked against the same formulas too.
PY=/usr/bin/python3
[ -x "$PY" ] && command -v protoc >/dev/null || skip "needs /usr/bin/python3 and protoc"
$PY -c "import numpy" 2>/dev/null || skip "needs python3-numpy"
$PY "$ROOT/tests/testkit/make_narrow_types.py" /usr/include/onnx/onnx.proto . ||
  fail "could not write the models"
cat > same.py <<'PY'
import numpy as np, sys
a = np.fromfile(sys.argv[1], np.float32)
b = np.fromfile(sys.argv[2], np.float32)
tol = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
ok = a.shape == b.shape and all(
    (np.isnan(p) and np.isnan(q)) or p == q or abs(float(p) - float(q)) <= tol * max(1, abs(float(p)))
    for p, q in zip(a, b))
print("same" if ok else "differs: %s" % [(i, p, q) for i, (p, q) in enumerate(zip(a, b))
                                           if not (p == q or np.isnan(p) and np.isnan(q))][:4])
PY
# compare MODEL COUNT INPUT [TOL]: every output of msame on MODEL.om against the formulas
compare() {
  run msame --model $1.om --input $3 --output out_$1
  expect_exit 0
  for i in $(seq 0 $(($2 - 1))); do
    run $PY same.py expect_$1_$i.bin "$(ls out_$1/*/$1_output_$i.bin)" ${4:-0}
    expect_stdout_line "same"
  done
}
for m in cast8 qdq8 int4 cast4 dqin; do
  run atc --model=$m.onnx --framework=5 --output=$m --soc_version=Ascend310 \
    --precision_mode=force_fp32
  expect_exit 0
done
compare cast8 8 x.bin
compare qdq8 2 x.bin
compare int4 3 x2.bin 1e-6
compare cast4 2 x2.bin
compare dqin 1 q.npy
# An int4 input value that does not fit 4 bits: refused, nothing written.
run msame --model dqin.om --input q_bad.npy --output bad
expect_exit_nonzero
expect_stdout_contains "element 3 is 9, outside int4's range [-8, 7]"
CHECKS=$((CHECKS + 1))
[ -z "$(find bad -type f)" ] || fail "msame wrote an output for a refused input"
# An operator that does not compute float8: E10055 naming the node, the input and the type.
run atc --model=relu8.onnx --framework=5 --output=relu8 --soc_version=Ascend310
expect_exit_nonzero
expect_stdout_contains "E10055"
expect_stdout_contains "node 'r' (Relu): input 0 ('c') is float8_e4m3fn"
expect_no_file relu8.om
# The mode-1 JSON names the float8 zero point's type as GE does.
run atc --mode=1 --om=qdq8.om --json=qdq8.json
expect_exit 0
CHECKS=$((CHECKS + 1))
grep -q "DT_FLOAT8_E4M3FN" qdq8.json || fail "the mode-1 JSON does not name DT_FLOAT8_E4M3FN"

# ONNX Runtime (the pinned peer) against the same formulas, where it is installed. Its one
# known difference: 61440 cast to float8e5m2 without saturation is NaN in ORT 1.20.1 and
# infinity in ONNX's reference (the tie rounds up past the largest value), which we follow;
# that element is left out of the comparison.
ORT_TOOL="$ROOT/scripts/bench/ort_tool.js"
if command -v node >/dev/null && [ -d "$ROOT/scripts/bench/node_modules/onnxruntime-node" ]; then
  for m in cast8:8:x qdq8:2:x int4:3:x2; do
    IFS=: read -r name count input <<<"$m"
    run node "$ORT_TOOL" run $name.onnx $input.npy ort_$name 1 1
    expect_exit 0
    for i in $(seq 0 $((count - 1))); do
      if [ $name = cast8 ] && [ $i = 5 ]; then
        run $PY -c "import numpy as np; a=np.fromfile('expect_cast8_5.bin',np.float32); \
b=np.fromfile('ort_cast8_5.bin',np.float32); x=np.load('x.npy'); k=x!=61440; \
print('same' if np.array_equal(a[k],b[k],equal_nan=True) else 'differs')"
      else
        run $PY same.py expect_${name}_$i.bin ort_${name}_$i.bin 1e-6
      fi
      expect_stdout_line "same"
    done
  done
else
  echo "[note] onnxruntime-node is not installed: the ONNX Runtime cross-check did not run"
fi
