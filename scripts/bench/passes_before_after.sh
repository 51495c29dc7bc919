#!/usr/bin/env bash
# passes_before_after.sh [model ...]: msame latency of each benchmark model without graph
# optimisation (the .onnx run directly: no fusion, fp32) and with it (the .om atc writes with
# --precision_mode=force_fp32), interleaved, ROUNDS rounds of RUNS runs, medians.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
rounds=${ROUNDS:-3}
runs=${RUNS:-10}
models=("$@")
[ ${#models[@]} -eq 0 ] && models=("${BENCH_MODEL_NAMES[@]}")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-20s %-14s %-14s %-8s\n' model "no passes ms" "passes ms" "after/before"
for m in "${models[@]}"; do
  onnx="$root/bench-models/$m.onnx"
  [ -f "$onnx" ] || /usr/bin/python3 "$here/export_models.py" "$m" >/dev/null 2>&1
  "$build/bin/atc" --model="$onnx" --framework=5 --output="$out/$m" --soc_version=Ascend310P3 \
    --precision_mode=force_fp32 >/dev/null
  before=() after=()
  for r in $(seq "$rounds"); do
    before+=("$("$build/bin/msame" --model "$onnx" --loop "$runs" | sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p')")
    after+=("$("$build/bin/msame" --model "$out/$m.om" --loop "$runs" | sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p')")
  done
  b=$(printf '%s\n' "${before[@]}" | median)
  a=$(printf '%s\n' "${after[@]}" | median)
  printf '%-20s %-14.3f %-14.3f %-8.3f\n' "$m" "$b" "$a" "$(awk -v a="$a" -v b="$b" 'BEGIN { print a / b }')"
done
