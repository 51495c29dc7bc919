#!/usr/bin/env bash
# threads_default.sh [model ...]: does msame's default thread count (no --threads: the model's
# work and the free cores, docs/runtime.md) run as fast as the best explicit --threads? For
# each model, quiet and then beside one busy-loop process: msame with no --threads and with
# --threads 1 .. nproc, ROUNDS rounds with the order rotating, medians of RUNS runs. Prints the
# default's thread count and median, each count's median, and default / best. Target (issue
# 34): default / best <= 1.10 for every model, quiet and loaded.
#   ROUNDS (3), RUNS (20), BUILD_DIR, BENCH_MODELS
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
rounds=${ROUNDS:-3}
runs=${RUNS:-20}
cores=$(nproc)
models=("$@")
[ ${#models[@]} -eq 0 ] && models=("${BENCH_MODEL_NAMES[@]}")
{ [ -x "$build/bin/atc" ] && [ -x "$build/bin/msame" ]; } || { echo "build first: scripts/test.sh" >&2; exit 1; }
ensure_ort  # bench_prepare writes the input with ort_tool.js
tmp=$(mktemp -d "${TMPDIR:-/tmp}/asc_threads.XXXXXX")
busy_pid=""
cleanup() {
  [ -z "$busy_pid" ] || kill "$busy_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# one OM INPUT [THREADS]: "median threads" of one msame process.
one() {
  local args=(--model "$1" --input "$2" --loop "$runs")
  [ -z "${3:-}" ] || args+=(--threads "$3")
  "$build/bin/msame" "${args[@]}" | sed -n 's/.*median_ms=\([0-9.]*\).*threads=\([0-9]*\).*/\1 \2/p'
}

printf '%-20s %-7s %-9s %-16s' model load default "(threads)"
for t in $(seq "$cores"); do printf ' %-9s' "t=$t"; done
printf ' %s\n' "default/best"
worst=0
for m in "${models[@]}"; do
  onnx=$(bench_onnx "$m" "$root") || { echo "$m: export failed"; continue; }
  bench_prepare "$onnx" "$tmp" "$m" "$build" || { echo "$m: atc failed"; continue; }
  for load in quiet busy; do
    if [ "$load" = busy ]; then
      (while :; do :; done) &
      busy_pid=$!
      sleep 0.2
    fi
    declare -A got=()
    configs=(default $(seq "$cores"))
    for r in $(seq "$rounds"); do
      # rotate the order each round
      n=${#configs[@]}
      for ((i = 0; i < n; i++)); do
        c=${configs[$(((i + r) % n))]}
        if [ "$c" = default ]; then
          read -r ms th < <(one "$tmp/$m.om" "$tmp/$m.in.npy")
          got[default]+="$ms "
          got[default_threads]="$th"
        else
          read -r ms th < <(one "$tmp/$m.om" "$tmp/$m.in.npy" "$c")
          got[$c]+="$ms "
        fi
      done
    done
    if [ "$load" = busy ]; then
      kill "$busy_pid" 2>/dev/null || true
      wait "$busy_pid" 2>/dev/null || true
      busy_pid=""
    fi
    def=$(tr ' ' '\n' <<<"${got[default]}" | sed '/^$/d' | median)
    best=""
    printf '%-20s %-7s %-9.3f %-16s' "$m" "$load" "$def" "(${got[default_threads]})"
    for t in $(seq "$cores"); do
      v=$(tr ' ' '\n' <<<"${got[$t]}" | sed '/^$/d' | median)
      printf ' %-9.3f' "$v"
      if [ -z "$best" ] || awk -v a="$v" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$v; fi
    done
    ratio=$(awk -v a="$def" -v b="$best" 'BEGIN { printf "%.3f", a / b }')
    printf ' %s\n' "$ratio"
    worst=$(awk -v a="$ratio" -v b="$worst" 'BEGIN { print (a > b ? a : b) }')
    unset got
  done
done
echo "worst default/best: $worst ($cores cores, $rounds rounds of $runs runs)"
