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
printf '%-16s %12s %12s %8s\n' model "c1 t2 fps" "c2 t1 fps" ratio
for m in "${models[@]}"; do
  onnx=$(bench_onnx "$m" "$root") || { echo "$m: export failed"; exit 1; }
  "$build/bin/atc" --model="$onnx" --framework=5 --output="$out/$m" --soc_version=Ascend310P3 \
    --precision_mode=force_fp32 >/dev/null
  a=() b=()
  for ((r = 0; r < rounds; ++r)); do
    if ((r % 2)); then
      b+=("$(fps "$out/$m.om" 2 1)"); a+=("$(fps "$out/$m.om" 1 2)")
    else
      a+=("$(fps "$out/$m.om" 1 2)"); b+=("$(fps "$out/$m.om" 2 1)")
    fi
  done
  ma=$(printf '%s\n' "${a[@]}" | median)
  mb=$(printf '%s\n' "${b[@]}" | median)
  printf '%-16s %12.1f %12.1f %8.2f\n' "$m" "$ma" "$mb" "$(awk -v a="$ma" -v b="$mb" 'BEGIN { print b / a }')"
done
