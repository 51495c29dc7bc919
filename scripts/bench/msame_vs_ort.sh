#!/usr/bin/env bash
# msame_vs_ort.sh [model ...]: converts each benchmark model with atc (--precision_mode=force_fp32),
# checks msame's outputs against ONNX Runtime's (onnxruntime-node) on the same random input, and
# times both side by side, interleaved: ROUNDS rounds of RUNS runs each, same thread count, the
# order alternating between rounds. It
# prints one row per model (accuracy, median latencies, ratio) and the geometric mean ratio.
#   ROUNDS (5), RUNS (20), THREADS (nproc), BUILD_DIR (build), BENCH_OUT (a temp folder),
#   BENCH_MODELS (folder of <model>.onnx; default bench-models/, exported when missing),
#   ACCURACY_ONLY=1 (check outputs, skip the timing). The last column is the cross-core round trip
#   before/after the model's rounds (lib.sh's core_rtt).
# Exit status 1 when any model's outputs miss the bounds: cosine >= 0.99999 and
# max |diff| <= 1e-4 * max |reference|.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
rounds=${ROUNDS:-5}
runs=${RUNS:-20}
threads=${THREADS:-$(nproc)}
models=("$@")
[ ${#models[@]} -eq 0 ] && models=("${BENCH_MODEL_NAMES[@]}")
out=${BENCH_OUT:-$(mktemp -d)}
mkdir -p "$out"

{ [ -x "$build/bin/atc" ] && [ -x "$build/bin/msame" ]; } || { echo "build first: scripts/test.sh" >&2; exit 1; }
ensure_ort
ort="node $here/ort_tool.js"


printf '%-20s %-10s %-12s %-10s %-10s %-8s %-12s\n' model cosine "maxdiff/ref" "msame ms" "ORT ms" ratio "core rtt ns"
status=0
ratios=()
for m in "${models[@]}"; do
  onnx=$(bench_onnx "$m" "$root") || { echo "$m: export failed"; status=1; continue; }
  bench_prepare "$onnx" "$out" "$m" "$build" || { echo "$m: atc failed (see $out/$m.atc.log)"; status=1; continue; }
  rm -rf "$out/$m.msame"
  "$build/bin/msame" --model "$out/$m.om" --input "$out/$m.in.npy" --output "$out/$m.msame" \
    --threads "$threads" >"$out/$m.msame.log" || { echo "$m: msame failed (see $out/$m.msame.log)"; status=1; continue; }
  $ort run "$onnx" "$out/$m.in.npy" "$out/$m.ort" 1 "$threads" >/dev/null
  cmp=$($ort compare "$out/$m.msame"/*/"${m}_output_0.bin" "$out/$m.ort_0.bin")
  cos=$(node -e "const r=$cmp; console.log(r.cosine.toFixed(7))")
  rel=$(node -e "const r=$cmp; console.log((r.max_abs_diff / Math.max(r.max_abs_ref, 1e-30)).toExponential(2))")
  ok=$(node -e "const r=$cmp; console.log(r.cosine >= 0.99999 && r.max_abs_diff <= 1e-4 * r.max_abs_ref ? 1 : 0)")
  [ "$ok" = 1 ] || status=1
  if [ "${ACCURACY_ONLY:-0}" = 1 ]; then
    printf '%-20s %-10s %-12s%s\n' "$m" "$cos" "$rel" "$([ "$ok" = 1 ] || echo '  ACCURACY FAIL')"
    continue
  fi
  ms_list=() ; ort_list=()
  # shellcheck disable=SC2317  # called through alternate
  run_msame() { ms_list+=("$(msame_summary "$build" "$out/$m.om" "$out/$m.in.npy" "$runs" "$threads" | field median_ms)"); }
  # shellcheck disable=SC2317
  run_ort() { ort_list+=("$(ort_run "$onnx" "$out/$m.in.npy" "$out/$m.ortt" "$((runs + 1))" "$threads" | field median_ms)"); }
  rtt_before=$(core_rtt)
  alternate "$rounds" run_msame run_ort
  rtt_after=$(core_rtt)
  msm=$(printf '%s\n' "${ms_list[@]}" | median)
  om=$(printf '%s\n' "${ort_list[@]}" | median)
  ratio=$(awk -v a="$msm" -v b="$om" 'BEGIN { printf "%.3f", a / b }')
  ratios+=("$ratio")
  printf '%-20s %-10s %-12s %-10.3f %-10.3f %-8s %-12s%s\n' "$m" "$cos" "$rel" "$msm" "$om" "$ratio" \
    "${rtt_before:-?}/${rtt_after:-?}" "$([ "$ok" = 1 ] || echo '  ACCURACY FAIL')"
done
if [ ${#ratios[@]} -gt 0 ]; then
  echo "geometric mean ratio (msame / ORT): $(printf '%s\n' "${ratios[@]}" | geomean) over ${#ratios[@]} models, $threads threads"
fi
exit $status
