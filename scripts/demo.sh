#!/usr/bin/env bash
# demo.sh [MODEL.onnx [INPUT_SHAPE [INPUT.npy]]]: the main job on a real model. Converts the
# model to an offline model with atc, shows its summary (atc --mode=6), and runs it with msame.
# Without arguments it uses models/digits/digits.onnx, a small CNN trained on the 8x8
# handwritten digits of Debian's python3-sklearn (scripts/make_digits_model.py), classifies a
# handful of digits it never saw in training and prints each true label beside the prediction.
# With a model of your own it runs it on INPUT.npy (zeros otherwise) and prints the top-5
# classes of output 0. Builds the tools first when they are not built yet.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
digits=$root/models/digits
model=${1:-$digits/digits.onnx}
shape=${2:-}
input=${3:-}
if [ -z "$input" ] && [ "$model" = "$root/models/resnet_mini.onnx" ]; then
  input="$root/tests/data/golden/resnet_mini.input.npy"
fi
soc=${SOC_VERSION:-Ascend310P3}
out=${DEMO_OUT:-$root/demo-out}

if [ ! -x "$build/bin/atc" ]; then
  echo "== building asc-tools (first run) =="
  "$root/scripts/install-deps.sh"
  # Configured as scripts/test.sh configures (tests on), so that running test.sh next reuses
  # this build folder and builds the tests; only the two tools the demo needs are built now.
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DASC_BUILD_TESTS=ON >/dev/null
  cmake --build "$build" -j "$(nproc)" --target atc msame
fi
atc="$build/bin/atc"
msame="$build/bin/msame"
stem=$(basename "${model%.*}")
mkdir -p "$out"

echo "== atc: $model -> $out/$stem.om (soc $soc) =="
args=(--model="$model" --framework=5 --output="$out/$stem" --soc_version="$soc"
      --precision_mode=force_fp32)
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
echo "$out/$stem.json: $(grep -c '"type": ' "$out/$stem.json" || true) ops (including Data, Const and NetOutput)"

if [ "$model" = "$digits/digits.onnx" ]; then
  echo
  echo "== msame: classify 8 digits the model never saw in training =="
  rm -rf "$out/run" "$out/images" && mkdir -p "$out/images"
  names=$(sed -n '1501,1508p' "$digits/labels.txt" | cut -d' ' -f1)
  for n in $names; do cp "$digits/images/$n.bin" "$out/images/"; done
  "$msame" --model "$out/$stem.om" --input "$out/images" --output "$out/run" |
    grep -E "Inference average|summary|Execute sample"
  right=0
  for n in $names; do
    truth=$(grep "^$n " "$digits/labels.txt" | cut -d' ' -f2)
    pred=$(od -An -v -f "$out"/run/*/"${n}_output_0.bin" | tr -s ' ' '\n' | grep -v '^$' |
      awk 'NR == 1 || $1 > m { m = $1; k = NR - 1 } END { print k }')
    [ "$pred" = "$truth" ] && right=$((right + 1))
    echo "  $n  true $truth  predicted $pred$([ "$pred" = "$truth" ] || echo '  (wrong)')"
  done
  echo "$right of 8 right (on all 297 images it never saw, 1500-1796: 94.6 %; docs/scale-out.md)"
  exit 0
fi

echo
echo "== msame: run $stem.om on the CPU runtime =="
rm -rf "$out/run"
margs=(--model "$out/$stem.om" --output "$out/run" --loop 10)
[ -n "$input" ] && margs+=(--input "$input")
"$msame" "${margs[@]}" | grep -E "Inference average|summary|Execute sample"
result=$(ls "$out"/run/*/"${stem}"_output_0.bin)

echo
echo "== top-5 classes (softmax over output 0) =="
od -An -v -f "$result" | tr -s ' ' '\n' | grep -v '^$' |
  awk '{ v[NR - 1] = $1; if (NR == 1 || $1 > m) m = $1 }
       END { for (i in v) { e[i] = exp(v[i] - m); s += e[i] }
             for (i in v) printf "%d %.6f\n", i, e[i] / s }' |
  sort -k2,2gr | awk 'NR <= 5 { printf "  class %4d  probability %.4f\n", $1, $2 }'
