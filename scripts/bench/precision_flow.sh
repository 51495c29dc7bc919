#!/usr/bin/env bash
# precision_flow.sh [model]: the precision workflow's figures (issue targets: the whole flow on
# ResNet-50 at force_fp16 under 30 s; every layer's cosine >= 0.999; dumps that do not grow
# memory). Runs scripts/precision-check.sh on the model (default resnet50, exported when
# missing), prints its wall time, the number of layer pairs, the lowest cosine and the growth
# of the relative Euclidean distance, then msame's peak RSS with and without --dump true
# (GNU time), interleaved, ROUNDS (3) rounds, medians.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
model=${1:-resnet50}
rounds=${ROUNDS:-3}
onnx="$root/bench-models/$model.onnx"
[ -f "$onnx" ] || /usr/bin/python3 "$here/export_models.py" "$model" >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

t0=$(date +%s.%N)
BIN="$build/bin" OUT="$out/flow" PRECISION=${PRECISION:-force_fp16} "$root/scripts/precision-check.sh" "$onnx" > "$out/flow.log" || true
t1=$(date +%s.%N)
tail -n 4 "$out/flow.log"
/usr/bin/python3 - "$out"/flow/result_*.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
c = [r for r in rows if r["CosineSimilarity"] != "NaN"]
lo = min(c, key=lambda r: float(r["CosineSimilarity"]))
print(f"layer pairs compared: {len(c)} of {len(rows)} rows; lowest cosine {lo['CosineSimilarity']} ({lo['NPUDump']})")
print(f"relative Euclidean distance: first {c[0]['RelativeEuclideanDistance']} ({c[0]['NPUDump']}), "
      f"max {max(float(r['RelativeEuclideanDistance']) for r in c):.6f}")
PY
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "whole flow: %.2f s (target: under 30 s)\n", b - a }'

om=$(ls "$out"/flow/model/*.om)
plain=() dump=()
for r in $(seq "$rounds"); do
  for mode in false true; do
    rss=$( { /usr/bin/time -v "$build/bin/msame" --model "$om" --output "$out/rss" --dump $mode \
              --random_input 1 >/dev/null; } 2>&1 | sed -n 's/.*Maximum resident set size (kbytes): //p')
    if [ $mode = false ]; then plain+=("$rss"); else dump+=("$rss"); fi
  done
  rm -rf "$out/rss"
done
p=$(printf '%s\n' "${plain[@]}" | median)
d=$(printf '%s\n' "${dump[@]}" | median)
awk -v p="$p" -v d="$d" 'BEGIN { printf "msame peak RSS: %.1f MB without dumps, %.1f MB with --dump true (x%.3f)\n", p / 1024, d / 1024, d / p }'
