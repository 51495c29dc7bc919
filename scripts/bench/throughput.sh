#!/usr/bin/env bash
# throughput.sh [model ...]: msame's throughput mode (issue 34): --concurrency 2 --threads 1
# against --concurrency 1 --threads 2 on the same .om, ROUNDS rounds of DURATION seconds each
# with the order alternating, medians of the fps. Target: at least 1.2x on SqueezeNet and
# MobileNetV2 (the default models). BUILD_DIR (build), ROUNDS (5), DURATION (3), BENCH_OUT.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
rounds=${ROUNDS:-5}
duration=${DURATION:-3}
out=${BENCH_OUT:-$(mktemp -d)}
models=("$@")
[ ${#models[@]} -eq 0 ] && models=(squeezenet1_1 mobilenet_v2)
mkdir -p "$out"
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
fps() {  # fps OM CONCURRENCY THREADS
  "$build/bin/msame" --model "$1" --random_input 1 --concurrency "$2" --threads "$3" \
    --duration "$duration" --warmup 3 --summary_json "$out/s.json" >/dev/null
  /usr/bin/python3 -c "import json; print(json.load(open('$out/s.json'))['throughput_fps'])"
}
# Beside the target's ratio: one request on one thread (c1 t1), and each way's scaling over it,
# "t2 scale" (c1 t2 / c1 t1) and "c2 scale" (c2 t1 / c1 t1; 2 when two requests lose nothing
# to each other). The ratio is c2 scale / t2 scale: the better one run uses two threads, the
# closer it stays to 1.
printf '%-16s %12s %12s %8s %12s %10s %10s\n' model "c1 t2 fps" "c2 t1 fps" ratio "c1 t1 fps" \
  "t2 scale" "c2 scale"
for m in "${models[@]}"; do
  onnx=$(bench_onnx "$m" "$root") || { echo "$m: export failed"; exit 1; }
  "$build/bin/atc" --model="$onnx" --framework=5 --output="$out/$m" --soc_version=Ascend310P3 \
    --precision_mode=force_fp32 >/dev/null
  a=() b=() c=()
  for ((r = 0; r < rounds; ++r)); do
    if ((r % 2)); then
      b+=("$(fps "$out/$m.om" 2 1)"); a+=("$(fps "$out/$m.om" 1 2)"); c+=("$(fps "$out/$m.om" 1 1)")
    else
      c+=("$(fps "$out/$m.om" 1 1)"); a+=("$(fps "$out/$m.om" 1 2)"); b+=("$(fps "$out/$m.om" 2 1)")
    fi
  done
  ma=$(printf '%s\n' "${a[@]}" | median)
  mb=$(printf '%s\n' "${b[@]}" | median)
  mc=$(printf '%s\n' "${c[@]}" | median)
  printf '%-16s %12.1f %12.1f %8.2f %12.1f %10.2f %10.2f\n' "$m" "$ma" "$mb" \
    "$(awk -v a="$ma" -v b="$mb" 'BEGIN { print b / a }')" "$mc" \
    "$(awk -v a="$ma" -v c="$mc" 'BEGIN { print a / c }')" "$(awk -v b="$mb" -v c="$mc" 'BEGIN { print b / c }')"
done
