#!/usr/bin/env bash
# precision-check.sh MODEL.onnx [INPUT]: the precision debugging workflow in one command.
#   1. atc converts the model (PRECISION, default force_fp16, for SOC) and writes its JSON,
#      which maps every fused device op back to the model's nodes;
#   2. msame runs the OM with --dump true (Ascend dump files, one per executed op);
#   3. msame runs the ONNX model with --dump true (golden .npy per node, fp32, no fusion);
#   4. mscompare aligns the two trees through the JSON and compares every shared tensor.
# It ends with mscompare's summary: the first diverging layer in execution order, and the
# verdict. Exit status: mscompare's (0 all layers pass, 1 a layer fails, 2 an error).
#
# INPUT: one file per model input, comma separated (.bin/.npy); without it both runs get the
# same random inputs (msame --random_input $SEED).
# Environment: BIN (folder of the built tools, default build/bin), OUT (work folder, default
# precision-check), SOC (Ascend310P3), PRECISION (force_fp16), INPUT_SHAPE (for models with
# dynamic dims), SEED (1), MIN_COSINE (0.99: a layer below it fails), ATOL/RTOL (element
# tolerance; default: loose for fp16/bf16 OMs, where drift is expected, tight for fp32).
# ATC_ARGS: more atc options, e.g. ATC_ARGS="--keep_dtype=keep.cfg" to keep the layers a
# first run named in fp32 and check again.
# MSAME: the msame that runs the OM (default $BIN/msame).
# FAULT_NODE (tests): perturb this OM node's output in the NPU-side run only, to check that the
# flow names it as the first divergence. Needs MSAME=$BIN/asc_msame_fault, the test build of
# msame that plants the fault (built with the tests; released tools have no fault injection).
set -euo pipefail

usage() { echo "usage: $0 MODEL.onnx [INPUT[,INPUT2...]]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
MODEL=$1
INPUT=${2:-}
[ -f "$MODEL" ] || { echo "precision-check: no model file '$MODEL'" >&2; exit 2; }

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/build/bin}
OUT=${OUT:-precision-check}
SOC=${SOC:-Ascend310P3}
PRECISION=${PRECISION:-force_fp16}
SEED=${SEED:-1}
MIN_COSINE=${MIN_COSINE:-0.99}
case "$PRECISION" in
  force_fp32|must_keep_origin_dtype) ATOL=${ATOL:-1e-4}; RTOL=${RTOL:-1e-3} ;;
  *) ATOL=${ATOL:-1}; RTOL=${RTOL:-1} ;;  # fp16 drift is expected: cosine decides
esac
for tool in atc msame mscompare; do
  [ -x "$BIN/$tool" ] || { echo "precision-check: $BIN/$tool is missing; run scripts/test.sh or set BIN" >&2; exit 2; }
done
MSAME=${MSAME:-$BIN/msame}
[ -x "$MSAME" ] || { echo "precision-check: MSAME=$MSAME is not an executable" >&2; exit 2; }
if [ -n "${FAULT_NODE:-}" ] && [ "$(basename "$MSAME")" != asc_msame_fault ]; then
  echo "precision-check: FAULT_NODE needs MSAME=$BIN/asc_msame_fault (built with the tests)" >&2
  exit 2
fi

rm -rf "$OUT"
mkdir -p "$OUT/model"
name=$(basename "$MODEL" .onnx)
step() { printf '== %s\n' "$*"; }
start=$(date +%s.%N)

shape_args=()
[ -n "${INPUT_SHAPE:-}" ] && shape_args=(--input_shape="$INPUT_SHAPE")
step "atc: $MODEL -> $OUT/model/$name.om ($PRECISION, $SOC)"
"$BIN/atc" --model="$MODEL" --framework=5 --output="$OUT/model/$name" --soc_version="$SOC" \
  --precision_mode="$PRECISION" "${shape_args[@]}" ${ATC_ARGS:-} > "$OUT/atc.log" 2>&1 ||
  { cat "$OUT/atc.log"; exit 2; }
"$BIN/atc" --mode=1 --om="$OUT/model/$name.om" --json="$OUT/model/$name.json" >> "$OUT/atc.log" 2>&1 ||
  { cat "$OUT/atc.log"; exit 2; }

input_args=(--random_input "$SEED")
[ -n "$INPUT" ] && input_args=(--input "$INPUT")
msame_shape=()
[ -n "${INPUT_SHAPE:-}" ] && msame_shape=(--input_shape "$INPUT_SHAPE")

step "msame: the OM with layer dumps"
ASC_FAULT_NODE=${FAULT_NODE:-} "$MSAME" --model "$OUT/model/$name.om" --output "$OUT/npu" --dump true "${input_args[@]}" \
  > "$OUT/msame_npu.log" 2>&1 || { cat "$OUT/msame_npu.log"; exit 2; }
step "msame: the ONNX model (golden, fp32, no fusion) with layer dumps"
"$BIN/msame" --model "$MODEL" --output "$OUT/golden" --dump true "${input_args[@]}" "${msame_shape[@]}" \
  > "$OUT/msame_golden.log" 2>&1 || { cat "$OUT/msame_golden.log"; exit 2; }

# The first run's folder of each side: dump/<time>/<device>/<model>/<model id>/0
npu_dir=$(find "$OUT/npu/dump" -mindepth 5 -maxdepth 5 -type d -name 0 | sort | tail -n 1)
golden_dir=$(find "$OUT/golden/dump" -mindepth 5 -maxdepth 5 -type d -name 0 | sort | tail -n 1)
[ -n "$npu_dir" ] && [ -n "$golden_dir" ] || { echo "precision-check: no dump folders under $OUT" >&2; exit 2; }

step "mscompare: $npu_dir against $golden_dir"
status=0
"$BIN/mscompare" -m "$npu_dir" -g "$golden_dir" -f "$OUT/model/$name.json" -out "$OUT" \
  --atol="$ATOL" --rtol="$RTOL" --min_cosine="$MIN_COSINE" --html="$OUT/report.html" || status=$?
end=$(date +%s.%N)
printf 'precision-check: %s at %s, %.1f s; CSV and report.html in %s/\n' "$name" "$PRECISION" \
  "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$OUT"
exit $status
