#!/usr/bin/env bash
# opt_levels.sh [model ...]: each benchmark model converted at --oo_level O1, O2 and O3
# (--precision_mode=force_fp32), its operator count (atc --log=info, TransData apart) and msame's
# median latency per level: ROUNDS rounds of RUNS runs, the order of the levels rotating from
# round to round, medians over the rounds. THREADS (default 2) kernel threads.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
rounds=${ROUNDS:-5}
runs=${RUNS:-10}
threads=${THREADS:-2}
models=("$@")
[ ${#models[@]} -eq 0 ] && models=("${BENCH_MODEL_NAMES[@]}")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
levels=(O1 O2 O3)
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; threads=$threads rounds=$rounds runs=$runs"
printf '%-20s %-16s %-16s %-16s %-10s\n' model "O1 ops / ms" "O2 ops / ms" "O3 ops / ms" "O3/O1"
for m in "${models[@]}"; do
  onnx="$root/bench-models/$m.onnx"
  [ -f "$onnx" ] || /usr/bin/python3 "$here/export_models.py" "$m" >/dev/null 2>&1
  declare -A ops=() times=()
  for l in "${levels[@]}"; do
    log=$("$build/bin/atc" --model="$onnx" --framework=5 --output="$out/$m.$l" --soc_version=Ascend310P3 \
      --precision_mode=force_fp32 --oo_level=$l --log=info 2>&1 >/dev/null)
    ops[$l]=$(sed -n 's/.*nodes [0-9]* -> \([0-9]*\).*/\1/p' <<<"$log" | tail -1)
    times[$l]=""
  done
  for r in $(seq "$rounds"); do
    for k in 0 1 2; do
      l=${levels[$(( (k + r) % 3 ))]}
      t=$("$build/bin/msame" --model "$out/$m.$l.om" --loop "$runs" --threads "$threads" |
        sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p')
      times[$l]+="$t "
    done
  done
  med=()
  for l in "${levels[@]}"; do med+=("$(tr ' ' '\n' <<<"${times[$l]}" | grep -v '^$' | median)"); done
  printf '%-20s %-16s %-16s %-16s %-10.3f\n' "$m" "${ops[O1]} / ${med[0]}" "${ops[O2]} / ${med[1]}" \
    "${ops[O3]} / ${med[2]}" "$(awk -v a="${med[2]}" -v b="${med[0]}" 'BEGIN { print a / b }')"
  unset ops times
done
