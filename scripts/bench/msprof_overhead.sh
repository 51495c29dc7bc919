#!/usr/bin/env bash
# msprof_overhead.sh [model]: what profiling costs. Converts the model (default resnet50) with
# atc, then runs msame alone and msame under msprof, interleaved (A B, B A, ...), ROUNDS rounds
# of RUNS runs each, and compares the median inference latency msame reports (its
# "median_ms=" summary, time inside Session::run, where the trace observer works). Prints each
# round, the median and the minimum of each side, the overhead in per cent of each and of each
# round's pair (the median of the rounds' overheads is the figure judged, target: <= 2 %),
# and, from the profile itself, the share of traced time spent between ops (where the trace
# observer's own work falls: an upper bound on its cost that machine load does not blur).
#   ROUNDS (7), RUNS (20), THREADS (nproc), BUILD_DIR (build), BENCH_OUT (a temp folder),
#   BENCH_MODELS (folder of <model>.onnx; default bench-models/, exported when missing),
#   STRICT=1 (exit 1 when the overhead is above 2 %)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
rounds=${ROUNDS:-7}
runs=${RUNS:-20}
threads=${THREADS:-$(nproc)}
models_dir=${BENCH_MODELS:-$root/bench-models}
m=${1:-resnet50}
out=${BENCH_OUT:-$(mktemp -d)}
mkdir -p "$out"

for t in atc msame msprof; do
  [ -x "$build/bin/$t" ] || { echo "build first (missing $build/bin/$t): scripts/test.sh" >&2; exit 1; }
done
onnx="$models_dir/$m.onnx"
if [ ! -f "$onnx" ]; then
  echo "exporting $m (scripts/install-deps.sh --models gives the Python packages)..."
  /usr/bin/python3 "$here/export_models.py" "$m" >/dev/null
  onnx="$root/bench-models/$m.onnx"
fi
"$build/bin/atc" --model="$onnx" --framework=5 --output="$out/$m" --soc_version=Ascend310P3 \
  >"$out/$m.atc.log" || { echo "atc failed (see $out/$m.atc.log)" >&2; exit 1; }

latency() { sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p'; }
plain() {
  "$build/bin/msame" --model "$out/$m.om" --loop "$runs" --threads "$threads" | latency
}
profiled() {
  rm -rf "$out/prof"
  "$build/bin/msprof" --output="$out/prof" "$build/bin/msame" --model "$out/$m.om" --loop "$runs" \
    --threads "$threads" >"$out/msprof.log"
  sed -n 's/.*between ops: \([0-9.]*\)%.*/\1/p' "$out/msprof.log" >>"$out/gaps.txt"
  latency <"$out/msprof.log"
}

plain >/dev/null  # warm the page cache and the CPU
: >"$out/gaps.txt"
a_list=() ; b_list=()
printf '%-6s %-14s %-14s\n' round "msame ms" "msprof ms"
for r in $(seq "$rounds"); do
  if [ $((r % 2)) = 1 ]; then a=$(plain); b=$(profiled); else b=$(profiled); a=$(plain); fi
  [ -n "$a" ] && [ -n "$b" ] || { echo "a run failed" >&2; exit 1; }
  a_list+=("$a"); b_list+=("$b")
  printf '%-6s %-14s %-14s\n' "$r" "$a" "$b"
done
am=$(printf '%s\n' "${a_list[@]}" | median)
bm=$(printf '%s\n' "${b_list[@]}" | median)
amin=$(printf '%s\n' "${a_list[@]}" | sort -g | sed -n 1p)
bmin=$(printf '%s\n' "${b_list[@]}" | sort -g | sed -n 1p)
pct=$(awk -v a="$am" -v b="$bm" 'BEGIN { printf "%.2f", 100 * (b - a) / a }')
pct_min=$(awk -v a="$amin" -v b="$bmin" 'BEGIN { printf "%.2f", 100 * (b - a) / a }')
# Each round's pair, measured side by side: the median of their ratios is what machine load
# drifting between rounds blurs least (the estimator msame_vs_ort.sh uses), and the figure judged.
ratios=$(for i in "${!a_list[@]}"; do awk -v a="${a_list[$i]}" -v b="${b_list[$i]}" 'BEGIN { printf "%.6f\n", 100 * (b - a) / a }'; done)
pct_pair=$(median <<<"$ratios" | awk '{ printf "%.2f", $1 }')
pair_lo=$(sort -g <<<"$ratios" | sed -n 1p | awk '{ printf "%.2f", $1 }')
pair_hi=$(sort -g <<<"$ratios" | tail -n1 | awk '{ printf "%.2f", $1 }')
gap=$(median <"$out/gaps.txt")
echo "model $m, $threads threads, $rounds rounds x $runs runs:"
echo "  median: msame $am ms, under msprof $bm ms, overhead $pct %"
echo "  minimum: msame $amin ms, under msprof $bmin ms, overhead $pct_min %"
echo "  paired: the median of the rounds' overheads $pct_pair % (rounds $pair_lo to $pair_hi %)"
echo "  time between ops in the traced runs (observer cost, upper bound): $gap %"
ops=$(ls "$out"/prof/PROF_*/mindstudio_profiler_output/op_summary_*.csv 2>/dev/null || true)
[ -n "$ops" ] && echo "last profile: $(dirname "$ops")"
if [ "${STRICT:-0}" = 1 ] && awk -v p="$pct_pair" 'BEGIN { exit !(p > 2) }'; then
  echo "overhead above 2 %" >&2
  exit 1
fi
