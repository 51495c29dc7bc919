#!/usr/bin/env bash
# demo.sh [MODEL.onnx [INPUT_SHAPE]]: the main job on a bundled model. Converts the model to an
# offline model with atc, shows its summary (atc --mode=6) and renders it as JSON (--mode=1).
# Without arguments it uses models/resnet_mini.onnx (ResNet-shaped, made by
# scripts/make_demo_model.py). Builds the tools first when they are not built yet.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
model=${1:-$root/models/resnet_mini.onnx}
shape=${2:-}
soc=${SOC_VERSION:-Ascend310P3}
out=${DEMO_OUT:-$root/demo-out}

if [ ! -x "$build/bin/atc" ]; then
  echo "== building asc-tools (first run) =="
  "$root/scripts/install-deps.sh"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DASC_BUILD_TESTS=OFF >/dev/null
  cmake --build "$build" -j "$(nproc)" --target atc
fi
atc="$build/bin/atc"
stem=$(basename "${model%.*}")
mkdir -p "$out"

echo "== atc: $model -> $out/$stem.om (soc $soc) =="
args=(--model="$model" --framework=5 --output="$out/$stem" --soc_version="$soc")
[ -n "$shape" ] && args+=(--input_shape="$shape")
start=$(date +%s%N)
"$atc" "${args[@]}"
end=$(date +%s%N)
echo "conversion took $(( (end - start) / 1000000 )) ms"

echo
echo "== atc --mode=6: the offline model's summary =="
"$atc" --mode=6 --om="$out/$stem.om"

echo
echo "== atc --mode=1: the model as JSON =="
"$atc" --mode=1 --om="$out/$stem.om" --json="$out/$stem.json"
ops=$(grep -c '"type": ' "$out/$stem.json" || true)
echo "$out/$stem.json: $ops ops (including Data, Const and NetOutput)"
echo "op types:"
grep -o '"type": "[A-Za-z0-9]*"' "$out/$stem.json" | sort | uniq -c | sort -rn | sed 's/"type": //; s/"//g'
