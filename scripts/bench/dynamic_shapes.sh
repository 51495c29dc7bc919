#!/usr/bin/env bash
# dynamic_shapes.sh [model]: the dynamic-shape figures of docs/dynamic-shapes.md, for resnet50 by
# default (scripts/bench/export_models.py makes it).
#  1. Accuracy: the model with a dynamic batch (and, second, dynamic H and W) against ONNX Runtime
#     (onnxruntime-node) on the same random inputs: --dynamic_batch_size="1,2,4,8" at each batch,
#     --input_shape_range at three image sizes. Bounds: cosine >= 0.99999 and
#     max |diff| <= 1e-4 * max |reference|. Batch 3 must be refused.
#  2. Switching profiles: msame over one folder of mixed batch sizes against the sum of the
#     single-batch folders' runs (the same files), ROUNDS rounds in alternating order, medians of
#     the summed inference times. Switching costs nothing when the ratio is ~1.
#   ROUNDS (5), FILES (3 per batch), THREADS (nproc), BUILD_DIR (build), BENCH_OUT (a temp folder)
# Exit status 1 when an output misses the bounds or batch 3 is not refused.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
rounds=${ROUNDS:-5}
files=${FILES:-3}
threads=${THREADS:-$(nproc)}
m=${1:-resnet50}
out=${BENCH_OUT:-$(mktemp -d)}
mkdir -p "$out"
[ -x "$build/bin/atc" ] && [ -x "$build/bin/msame" ] || { echo "build first: scripts/test.sh" >&2; exit 1; }
ensure_ort
ort="node $here/ort_tool.js"
onnx="$root/bench-models/$m.onnx"
[ -f "$onnx" ] || /usr/bin/python3 "$here/export_models.py" "$m" >/dev/null 2>&1
# ONNX Runtime needs the model's own input dims dynamic too: a copy with N, H and W symbolic.
/usr/bin/python3 - "$onnx" "$out/$m.dyn.onnx" <<'PY'
import sys, onnx
m = onnx.load(sys.argv[1])
for v in list(m.graph.input) + list(m.graph.output):
    dims = v.type.tensor_type.shape.dim
    for i, name in ((0, "N"), (2, "H"), (3, "W")):
        if i < len(dims) and (i == 0 or v in m.graph.input):
            dims[i].dim_param = name
onnx.save(m, sys.argv[2])
PY
input=$("$build/bin/atc" --model="$onnx" --framework=5 --output="$out/probe" --soc_version=Ascend310P3 \
  --precision_mode=force_fp32 >/dev/null && "$build/bin/atc" --mode=6 --om="$out/probe.om" |
  sed -n 's/.*inputs\[\([^:]*\):float32.*/\1/p')
common=(--framework=5 --soc_version=Ascend310P3 --precision_mode=force_fp32)
status=0
check() {  # check LABEL NPY OM [msame options...]: msame and ORT on the same input
  local label=$1 npy=$2 om=$3
  shift 3
  rm -rf "$out/o"
  "$build/bin/msame" --model "$om" --input "$npy" --output "$out/o" --threads "$threads" "$@" \
    >"$out/msame.log" || { echo "$label: msame failed (see $out/msame.log)"; status=1; return; }
  $ort run "$out/$m.dyn.onnx" "$npy" "$out/ort" 1 "$threads" >/dev/null
  local r
  r=$($ort compare "$out"/o/*/*_output_0.bin "$out/ort_0.bin")
  node -e "const r=$r; const ok = r.cosine >= 0.99999 && r.max_abs_diff <= 1e-4 * r.max_abs_ref;
    console.log('$label'.padEnd(28) + r.cosine.toFixed(7).padEnd(12) +
      (r.max_abs_diff / r.max_abs_ref).toExponential(2) + (ok ? '' : '  ACCURACY FAIL'));
    process.exit(ok ? 0 : 1)" || status=1
}

echo "== $m: accuracy against ONNX Runtime (cosine, max|diff|/max|ref|), $threads threads"
"$build/bin/atc" --model="$onnx" "${common[@]}" --output="$out/batch" \
  --input_shape="$input:-1,3,224,224" --dynamic_batch_size="1,2,4,8" >"$out/atc.log"
for b in 1 2 4 8; do
  $ort gen "$out/b$b.npy" "$b,3,224,224" $((7767517 + b))
  check "dynamic batch $b" "$out/b$b.npy" "$out/batch.om"
done
$ort gen "$out/b3.npy" "3,3,224,224" 3
if "$build/bin/msame" --model "$out/batch.om" --input "$out/b3.npy" >"$out/b3.log" 2>&1; then
  echo "batch 3: ran, expected a refusal"; status=1
else
  echo "batch 3: refused: $(grep -m1 'E1001' "$out/b3.log" | sed 's/^\[ERROR\] //')"
fi
"$build/bin/atc" --model="$onnx" "${common[@]}" --output="$out/range" \
  --input_shape_range="$input:[1,3,160~320,160~320]" >"$out/atc-range.log"
for hw in 160x160 224x288 320x320; do
  h=${hw%x*} w=${hw#*x}
  $ort gen "$out/r$hw.npy" "1,3,$h,$w" $((h * w))
  check "input_shape_range $hw" "$out/r$hw.npy" "$out/range.om"
done

echo "== switching profiles: one mixed folder against the single-batch folders ($files files each)"
rm -rf "$out/mixed" "$out/single"
mkdir -p "$out/mixed"
for b in 1 2 4 8; do
  mkdir -p "$out/single/b$b"
  for k in $(seq "$files"); do
    $ort gen "$out/single/b$b/$k.npy" "$b,3,224,224" $((b * 100 + k))
    # interleaved in the mixed folder: sorted names alternate the batch sizes
    cp "$out/single/b$b/$k.npy" "$out/mixed/${k}_b$b.npy"
  done
done
sum_times() { sed -n 's/^Inference time: \([0-9.]*\)ms$/\1/p' | awk '{ s += $1 } END { printf "%.3f", s }'; }
run_mixed() {
  "$build/bin/msame" --model "$out/batch.om" --input "$out/mixed" --threads "$threads" | sum_times
}
run_single() {
  local total=0 t
  for b in 1 2 4 8; do
    t=$("$build/bin/msame" --model "$out/batch.om" --input "$out/single/b$b" --threads "$threads" | sum_times)
    total=$(awk -v a="$total" -v b="$t" 'BEGIN { printf "%.3f", a + b }')
  done
  echo "$total"
}
mixed=() single=()
for r in $(seq "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then mixed+=("$(run_mixed)"); single+=("$(run_single)")
  else single+=("$(run_single)"); mixed+=("$(run_mixed)"); fi
done
mm=$(printf '%s\n' "${mixed[@]}" | median)
sm=$(printf '%s\n' "${single[@]}" | median)
awk -v a="$mm" -v b="$sm" -v r="$rounds" 'BEGIN {
  printf "mixed folder %.1f ms, single-batch folders %.1f ms (medians of %d rounds): ratio %.3f\n", a, b, r, a / b }'
exit $status
