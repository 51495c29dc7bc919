#!/usr/bin/env bash
# shared_machine.sh [model ...]: msame against ONNX Runtime when the cores are shared, the way
# users run it on a busy machine (issue 34). Two modes, each side by side with the peer, ROUNDS
# rounds with the order alternating, medians:
#   pair   two processes of the same tool at once (as GNU parallel, a Slurm array on one node or
#          the sharded batch recipes do), each THREADS threads, RUNS timed runs: the per-process
#          median latency (msame's summary median_ms; ORT's median of ort_tool.js run);
#   busy   one busy-loop process beside a single run of each tool. msame runs as users start it,
#          with no --threads (its count follows the work and the free cores, docs/runtime.md);
#          BUSY_THREADS=N gives it --threads N instead. ORT runs with THREADS intra-op threads
#          (its own default is one per physical core: the same count on these machines).
# Prints one row per model (msame ms, ORT ms, ratio for each mode: each process's median latency,
# the median over rounds; then the same ratio of the processes' mean latencies, which count in
# full the slow runs a shared core brings), then the geometric mean and the worst of each mode.
# Targets (issue 34): geomean <= 1.0 and worst <= 1.3 in both modes.
# Both tools time the run call alone (no input copies: msame's Session::run, ORT's session.run on
# tensors made before the loop). msame runs as users start it: unless GOMP_SPINCOUNT or
# OMP_WAIT_POLICY is set, it bounds libgomp's spin (asc/cli/common.h); SPIN=default runs it with
# libgomp's own default (GOMP_SPINCOUNT=300000) to show what that bound changes.
#   ROUNDS (3), RUNS (20), THREADS (nproc), MODES ("pair busy"), BUILD_DIR, BENCH_MODELS, SPIN,
#   BUSY_THREADS (default: msame's own count)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
rounds=${ROUNDS:-3}
runs=${RUNS:-20}
threads=${THREADS:-$(nproc)}
modes=${MODES:-pair busy}
models=("$@")
[ ${#models[@]} -eq 0 ] && models=("${BENCH_MODEL_NAMES[@]}")
{ [ -x "$build/bin/atc" ] && [ -x "$build/bin/msame" ]; } || { echo "build first: scripts/test.sh" >&2; exit 1; }
ensure_ort
tmp=$(mktemp -d "${TMPDIR:-/tmp}/asc_shared.XXXXXX")
busy_pid=""
cleanup() {
  [ -z "$busy_pid" ] || kill "$busy_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
msame_env=()
[ "${SPIN:-}" = default ] && msame_env=(env GOMP_SPINCOUNT=300000)

# Each process gives "median mean" (ms), of its runs after the first.
one_msame() {  # one_msame OM INPUT [THREADS] (no THREADS: msame's own count)
  local out
  out=$("${msame_env[@]}" "$build/bin/msame" --model "$1" --input "$2" --loop "$runs" \
    ${3:+--threads "$3"})
  echo "$(field median_ms <<<"$out") $(field mean_ms <<<"$out")"
}
busy_threads=${BUSY_THREADS:-}
one_ort() {  # one_ort ONNX INPUT PREFIX
  local out
  out=$(node "$here/ort_tool.js" run "$1" "$2" "$3" "$((runs + 1))" "$threads")
  echo "$(field median_ms <<<"$out") $(field mean_ms <<<"$out")"
}
# two CMD...: CMD twice at once; prints both results, one per line.
two() {
  "$@" >"$tmp/a.out" &
  local p=$!
  "$@" >"$tmp/b.out"
  wait "$p"
  cat "$tmp/a.out" "$tmp/b.out"
}
busy_start() {
  (while :; do :; done) &
  busy_pid=$!
}
busy_stop() {
  kill "$busy_pid" 2>/dev/null || true
  wait "$busy_pid" 2>/dev/null || true
  busy_pid=""
}

printf '%-20s' model
for mode in $modes; do printf ' %-11s %-11s %-7s %-10s' "$mode-msame" "$mode-ORT" ratio "mean-ratio"; done
printf '\n'
declare -A ratios mean_ratios
for m in "${models[@]}"; do
  onnx=$(bench_onnx "$m" "$root") || { echo "$m: export failed"; continue; }
  bench_prepare "$onnx" "$tmp" "$m" "$build" || { echo "$m: atc failed"; continue; }
  om="$tmp/$m.om" in="$tmp/$m.in.npy"
  printf '%-20s' "$m"
  for mode in $modes; do
    ms=() os=()
    # shellcheck disable=SC2317  # called through alternate
    side_msame() {
      if [ "$mode" = pair ]; then
        mapfile -t -O "${#ms[@]}" ms < <(two one_msame "$om" "$in" "$threads")
      else
        busy_start
        ms+=("$(one_msame "$om" "$in" "$busy_threads")")
        busy_stop
      fi
    }
    # shellcheck disable=SC2317
    side_ort() {
      if [ "$mode" = pair ]; then
        mapfile -t -O "${#os[@]}" os < <(two one_ort "$onnx" "$in" "$tmp/$m.ort")
      else
        busy_start
        os+=("$(one_ort "$onnx" "$in" "$tmp/$m.ort")")
        busy_stop
      fi
    }
    alternate "$rounds" side_msame side_ort
    # Over rounds: the median of the processes' medians, and of their means.
    a=$(printf '%s\n' "${ms[@]}" | cut -d' ' -f1 | median)
    b=$(printf '%s\n' "${os[@]}" | cut -d' ' -f1 | median)
    am=$(printf '%s\n' "${ms[@]}" | cut -d' ' -f2 | median)
    bm=$(printf '%s\n' "${os[@]}" | cut -d' ' -f2 | median)
    r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
    rm=$(awk -v a="$am" -v b="$bm" 'BEGIN { printf "%.3f", a / b }')
    ratios[$mode]+="$r "
    mean_ratios[$mode]+="$rm "
    printf ' %-11.3f %-11.3f %-7s %-10s' "$a" "$b" "$r" "$rm"
  done
  printf '\n'
done
for mode in $modes; do
  list=$(tr ' ' '\n' <<<"${ratios[$mode]:-}" | sed '/^$/d')
  [ -n "$list" ] || continue
  mlist=$(tr ' ' '\n' <<<"${mean_ratios[$mode]:-}" | sed '/^$/d')
  echo "$mode: geometric mean msame/ORT $(geomean <<<"$list"), worst $(sort -g <<<"$list" | tail -n1);" \
    "of the mean latencies $(geomean <<<"$mlist"), worst $(sort -g <<<"$mlist" | tail -n1);" \
    "over $(wc -l <<<"$list") models, ORT on $threads threads, msame on $(
      [ "$mode" = busy ] && echo "${busy_threads:-its own count of}" || echo "$threads"
    ) threads, $rounds rounds of $runs runs" \
    "($(nproc) cores${SPIN:+, SPIN=$SPIN})"
done
