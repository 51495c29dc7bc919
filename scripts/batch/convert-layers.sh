#!/usr/bin/env bash
# convert-layers.sh BLOCKS_DIR OUT_DIR --input FILE [--whole MODEL.onnx] [--soc_version=SOC]
#                   [-- ATC_OPTIONS...] [-P PARALLEL_OPTIONS...]
# The layer-by-layer flow for models too big to convert whole (a transformer exported one block
# per file): every BLOCKS_DIR/*.onnx is converted in parallel by convert-all.sh (OUT_DIR/om/),
# then msame runs the blocks as a chain in file-name order, each block's output 0 the next
# block's input (OUT_DIR/run/<block>/). Each block takes one input and gives one output.
# With --whole, the whole model is converted and run on the same input too, and the chain's
# final output must match it: cosine >= 0.99999 and max |diff| <= 1e-4 * max |whole|.
# Prints one line per block (its time) and the comparison. Exit status: 0, 1 when a conversion
# or run fails or the chain does not match, 2 on a usage error.
# MSAME and ATC name the tools (default: on PATH).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() {
  echo "usage: convert-layers.sh BLOCKS_DIR OUT_DIR --input FILE [--whole MODEL.onnx]" \
       "[--soc_version=SOC] [-- ATC_OPTIONS...] [-P PARALLEL_OPTIONS...]" >&2
  exit 2
}
[ $# -ge 2 ] && [ -d "$1" ] || usage
blocks=$(cd "$1" && pwd) out=$2
shift 2
input="" whole="" soc=Ascend310P3
pass=()  # what convert-all.sh takes after the folders
while [ $# -gt 0 ]; do
  case "$1" in
    --input) [ $# -ge 2 ] || usage; input=$2; shift 2 ;;
    --whole) [ $# -ge 2 ] || usage; whole=$2; shift 2 ;;
    --soc_version=*) soc=${1#--soc_version=}; pass+=("$1"); shift ;;
    --|-P) pass+=("$@"); break ;;
    *) usage ;;
  esac
done
[ -n "$input" ] && [ -f "$input" ] || { echo "convert-layers.sh: --input FILE is required" >&2; exit 2; }
MSAME=${MSAME:-msame}
ATC=${ATC:-atc}
mkdir -p "$out"
out=$(cd "$out" && pwd)
input=$(cd "$(dirname "$input")" && pwd)/$(basename "$input")
atc_opts=()  # the atc options (between -- and -P), for the whole model
in_atc=0
for a in "${pass[@]}"; do
  case "$in_atc:$a" in
    *:--) in_atc=1 ;;
    *:-P) in_atc=0 ;;
    1:*) atc_opts+=("$a") ;;
  esac
done

ATC="$ATC" "$here/convert-all.sh" "$blocks" "$out/om" "${pass[@]}" || {
  echo "convert-layers.sh: a block did not convert (see $out/om/results.csv)"; exit 1; }

mapfile -t names < <(cd "$blocks" && ls -- *.onnx | sed 's/\.onnx$//' | sort)
rm -rf "$out/run"
cur=$input
for name in "${names[@]}"; do
  "$MSAME" --model "$out/om/$name.om" --input "$cur" --output "$out/run/$name" \
    >"$out/run-$name.log" 2>&1 || { echo "convert-layers.sh: block $name failed (see $out/run-$name.log)"; exit 1; }
  next=$(ls "$out/run/$name"/*/"${name}_output_0.bin" 2>/dev/null | head -n1)
  [ -n "$next" ] || { echo "convert-layers.sh: block $name wrote no output 0"; exit 1; }
  echo "block $name: $(sed -n 's/^Inference time: //p' "$out/run-$name.log")"
  cur=$next
done
echo "chain output: $cur"
[ -n "$whole" ] || exit 0

"$ATC" --model="$whole" --framework=5 --output="$out/whole" --soc_version="$soc" "${atc_opts[@]}" \
  >"$out/whole-atc.log" 2>&1 || { echo "convert-layers.sh: the whole model did not convert (see $out/whole-atc.log)"; exit 1; }
"$MSAME" --model "$out/whole.om" --input "$input" --output "$out/run/whole" >"$out/run-whole.log" 2>&1 ||
  { echo "convert-layers.sh: the whole model failed (see $out/run-whole.log)"; exit 1; }
ref=$(ls "$out/run/whole"/*/whole_output_0.bin | head -n1)
# cosine and max |diff| of two raw float32 files, with POSIX tools only
verdict=$(od -An -v -f -w4 "$cur" | paste - <(od -An -v -f -w4 "$ref") | awk '
  { a = $1 + 0; b = $2 + 0; ab += a * b; aa += a * a; bb += b * b; d = a - b; if (d < 0) d = -d
    if (d > md) md = d; if (b < 0) b = -b; if (b > mr) mr = b; n++ }
  END { c = (aa > 0 && bb > 0) ? ab / sqrt(aa * bb) : (md == 0 ? 1 : 0)
        printf "%d values: cosine %.7f, max |diff| %.3g, max |whole| %.3g %s\n", n, c, md, mr,
          (c >= 0.99999 && md <= 1e-4 * mr + 1e-6) ? "MATCH" : "MISMATCH" }')
echo "chain against the whole model: $verdict"
[[ "$verdict" == *" MATCH" ]]
