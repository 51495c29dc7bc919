#!/usr/bin/env bash
# atc_convert.sh [MODEL.onnx] [RUNS]: times atc's conversion of a model (default: ResNet-50
# exported by export_models.py at opset 13) over RUNS runs (default 11) and prints the median,
# min and max wall time. Target (foundation issue): under 1 s for ResNet-50 on this machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
model=${1:-$root/bench-models/resnet50.onnx}
runs=${2:-11}
if [ ! -f "$model" ]; then
  echo "exporting $(basename "$model") with python3-torch..."
  /usr/bin/python3 "$root/scripts/bench/export_models.py" "$(basename "${model%.onnx}")"
fi
[ -x "$build/bin/atc" ] || { echo "build first: scripts/test.sh" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shape_arg=()
[ "$(basename "$model")" = resnet50.onnx ] && shape_arg=(--input_shape="input:1,3,224,224")
times=()
for i in $(seq "$runs"); do
  s=$(date +%s%N)
  "$build/bin/atc" --model="$model" --framework=5 --output="$tmp/m" --soc_version=Ascend910B1 \
    "${shape_arg[@]}" >/dev/null
  e=$(date +%s%N)
  times+=($(( (e - s) / 1000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
n=${#sorted[@]}
printf 'model %s (%s MB), %d runs\n' "$(basename "$model")" \
  "$(( $(stat -c %s "$model") / 1000000 ))" "$n"
awk -v med="${sorted[$((n / 2))]}" -v lo="${sorted[0]}" -v hi="${sorted[$((n - 1))]}" \
  'BEGIN { printf "atc conversion wall time: median %.1f ms, min %.1f ms, max %.1f ms\n", med / 1000, lo / 1000, hi / 1000 }'
"$build/bin/atc" --model="$model" --framework=5 --output="$tmp/m" --soc_version=Ascend910B1 \
  "${shape_arg[@]}" --log=info 2>&1 | grep -E "imported|wrote" || true
