#!/usr/bin/env bash
# startup.sh [MODEL]: what a user waits for before the first answer, and what the integrity check
# costs, msame against ONNX Runtime on one model (default resnet50), side by side, the order
# alternating between rounds, medians (min-max) over ROUNDS (default 11).
#   whole   msame's whole process, start to outputs written (--loop 1 --output, THREADS threads),
#           wall time measured outside it, against ORT's InferenceSession.create + first run
#           (ort_tool.js run's create_ms + first_ms: node's own start and module load excluded,
#           which favours ORT). Target: msame <= 0.25 x ORT.
#   verify  msame's Session::load (summary load_ms) with the check of every byte against with
#           --skip_verify=true, paired per round: (load - load_skipped) / load. Target <= 0.10.
# Prints key=value lines (run.sh parses them). Env: BUILD_DIR, BENCH_MODELS, THREADS, ROUNDS.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
m=${1:-resnet50}
threads=${THREADS:-$(nproc)}
rounds=${ROUNDS:-11}
ensure_ort
tmp=$(mktemp -d "${TMPDIR:-/tmp}/asc_startup.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
onnx=$(bench_onnx "$m" "$root") || { echo "startup.sh: cannot export $m (python3-torch)" >&2; exit 1; }
bench_prepare "$onnx" "$tmp" "$m" "$build" || { echo "startup.sh: atc failed" >&2; exit 1; }
ms_now() { date +%s%N; }
# shellcheck disable=SC2317  # called through alternate
whole() {
  local s e
  rm -rf "$tmp/out"
  s=$(ms_now)
  "$build/bin/msame" --model "$tmp/$m.om" --input "$tmp/$m.in.npy" --output "$tmp/out" --loop 1 \
    --threads "$threads" >"$tmp/whole.log"
  e=$(ms_now)
  [ -n "$(ls "$tmp"/out/*/*_output_0.bin 2>/dev/null)" ] || { echo "startup.sh: msame wrote no output" >&2; exit 1; }
  awk -v a="$s" -v b="$e" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 }' >>"$tmp/whole"
  field load_ms <"$tmp/whole.log" >>"$tmp/load"
}
# shellcheck disable=SC2317
skipped() {
  "$build/bin/msame" --model "$tmp/$m.om" --input "$tmp/$m.in.npy" --loop 1 --threads "$threads" \
    --skip_verify=true | field load_ms >>"$tmp/load_skip"
}
# shellcheck disable=SC2317
ort() {
  local j
  j=$(ort_run "$onnx" "$tmp/$m.in.npy" "$tmp/ort" 1 "$threads")
  awk -v a="$(field create_ms <<<"$j")" -v b="$(field first_ms <<<"$j")" 'BEGIN { printf "%.3f\n", a + b }' >>"$tmp/ort"
}
: >"$tmp/whole"; : >"$tmp/load"; : >"$tmp/load_skip"; : >"$tmp/ort"
alternate "$rounds" whole skipped ort
paste "$tmp/whole" "$tmp/ort" | awk '{ printf "%.6f\n", $1 / $2 }' >"$tmp/whole_ratio"
paste "$tmp/load" "$tmp/load_skip" | awk '{ printf "%.6f\n", ($1 - $2) / $1 }' >"$tmp/verify_share"
show() { read -r lo med hi < <(stats <"$1"); echo "$2=$med min=$lo max=$hi"; }
echo "model=$m threads=$threads rounds=$rounds"
show "$tmp/whole" msame_whole_ms
show "$tmp/ort" ort_create_first_ms
show "$tmp/whole_ratio" whole_ratio
show "$tmp/load" load_ms
show "$tmp/load_skip" load_skip_verify_ms
show "$tmp/verify_share" verify_share
