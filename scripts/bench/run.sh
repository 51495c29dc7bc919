#!/usr/bin/env bash
# run.sh [--quick] [--out FILE] [--opgen]: every benchmark figure in one run, written as Markdown
# to FILE (default docs/benchmarks.md): the machine line (CPU, cores, ISA, the fp32 FMA peak
# measured by fma_peak.cpp), then one table per tool with the peer's figure beside ours, each
# figure the median over rounds (min and max beside), the order of the two sides alternating
# between rounds, and each target with its value and "met" or "MISSED".
#   msame   vs ONNX Runtime (onnxruntime-node, same thread count) on the ten benchmark models;
#           ResNet-50 startup (load vs InferenceSession.create, first run vs steady), peak RSS
#           against weights + arena, fraction of the FMA peak
#   atc     ResNet-50 conversion wall time vs ORT session creation
#   msprof  msprof_overhead.sh; mscompare: mscompare_bench.sh (vs numpy);
#   opgen   opgen_kernel.sh only with --opgen (it compiles a plugin with CMake)
# --quick: 3 rounds of 5 runs, a smaller mscompare input (about 2 minutes on 2 quiet cores); the
# full run (9 rounds of 30 runs) about 5 minutes on 2 quiet cores. A concurrent build slows both
# several times (msame's thread pool suffers most: see the † marks). Env: BUILD_DIR (build), BENCH_MODELS (bench-models/),
# THREADS (nproc), ROUNDS / RUNS (override the mode's), KEEP=1 keeps the temp folder.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
invocation="scripts/bench/run.sh${*:+ $*}"
for v in THREADS ROUNDS RUNS ONEDNN_MAX_CPU_ISA; do [ -z "${!v:-}" ] || invocation="$v=${!v} $invocation"; done
quick=0 with_opgen=0 dest=$root/docs/benchmarks.md
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --opgen) with_opgen=1 ;;
    --out) dest=$2; shift ;;
    --out=*) dest=${1#--out=} ;;
    *) echo "usage: run.sh [--quick] [--out FILE] [--opgen]" >&2; exit 2 ;;
  esac
  shift
done
threads=${THREADS:-$(nproc)}
if [ $quick = 1 ]; then
  rounds=${ROUNDS:-3} runs=${RUNS:-5} size_gb=0.125 cmp_runs=1 prof_rounds=3 prof_runs=5
else
  rounds=${ROUNDS:-9} runs=${RUNS:-30} size_gb=1 cmp_runs=3 prof_rounds=9 prof_runs=20
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/asc_bench.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "temp folder: $tmp" >&2; else trap 'rm -rf "$tmp"' EXIT; fi
export BENCH_CMDLOG=$tmp/commands.txt
: >"$BENCH_CMDLOG"
md=$tmp/report.md
say() { printf '%s\n' "$*" >>"$md"; }
log() { printf '[run.sh %s] %s\n' "$(date +%T)" "$*" >&2; }
# verdict VALUE OP TARGET: "met" or "**MISSED**" (OP: <= or >).
verdict() {
  awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN { ok = op == "<=" ? v <= t : v > t; print ok ? "met" : "**MISSED**" }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
fmt() { awk -v x="$1" -v p="${2:-2}" 'BEGIN { printf "%.*f", p, x }'; }
# mmm FILE [DIGITS]: "median (min–max)" of the numbers in FILE, and a dagger when the max is
# above 1.5 x the min (an unsteady machine).
mmm() {
  local lo med hi
  read -r lo med hi < <(stats <"$1")
  printf '%s (%s–%s)%s' "$(fmt "$med" "${2:-2}")" "$(fmt "$lo" "${2:-2}")" "$(fmt "$hi" "${2:-2}")" \
    "$(awk -v lo="$lo" -v hi="$hi" 'BEGIN { if (hi > 1.5 * lo) printf " †" }')"
}
med() { median <"$1"; }
# fields NAME: field NAME of every line on stdin, one a line.
fields() { local l; while read -r l; do field "$1" <<<"$l"; done; }
# per_round A B OUT: OUT gets line i of A divided by line i of B (paired figures of one round).
per_round() { paste "$1" "$2" | awk '{ printf "%.6f\n", $1 / $2 }' >"$3"; }

# The binaries may be rebuilt under us: wait a little for a missing one.
for t in atc msame msprof mscompare; do
  for _ in 1 2 3 4 5; do [ -x "$build/bin/$t" ] && break; log "waiting for $build/bin/$t"; sleep 60; done
  [ -x "$build/bin/$t" ] || { echo "build first (missing $build/bin/$t): scripts/test.sh" >&2; exit 1; }
done
ensure_ort
# bins_stamp: the binaries' modification times, to notice a rebuild during the run.
bins_stamp() { stat -L -c '%n %Y' "$build"/bin/{atc,msame,msprof,mscompare} "$build"/lib/libasccore.so* 2>/dev/null | md5sum; }
stamp_before=$(bins_stamp)
built=$(date -u -d "@$(stat -L -c %Y "$build"/bin/msame "$build"/lib/libasccore.so* 2>/dev/null | sort -n | tail -n1)" '+%Y-%m-%d %H:%M UTC')
src_head=$(git -C "$build/.." log -1 --format=%h 2>/dev/null || echo unknown)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u '+%Y-%m-%d %H:%M UTC')
t_start=$(date +%s)

# --- machine ---------------------------------------------------------------------------------
log "machine: FMA peak"
cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -n1)
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
isa=
for f in avx2 fma avx512f avx512_bf16 amx_tile; do
  if [[ $flags == *" $f "* ]]; then isa+=" $f"; else isa+=" (no $f)"; fi
done
isa=${isa# }
# The peak at the width the runs may use: AVX2 + FMA under an AVX2 cap, else the CPU's widest.
march=-march=native
isa_cap=${ONEDNN_MAX_CPU_ISA:-}
case ${isa_cap^^} in AVX2*) march="-march=native -mno-avx512f" ;; esac
# shellcheck disable=SC2086  # march is two words on purpose
c++ -O2 $march -pthread "$here/fma_peak.cpp" -o "$tmp/fma_peak"
echo "c++ -O2 $march -pthread scripts/bench/fma_peak.cpp -o fma_peak && ./fma_peak $threads 10 && ./fma_peak 1 10" >>"$BENCH_CMDLOG"
# The cross-core round trip, sampled around each model's rounds (lib.sh's core_rtt).
echo "c++ -O2 -pthread scripts/bench/core_latency.cpp -o core_latency && ./core_latency" >>"$BENCH_CMDLOG"
peak_line=$("$tmp/fma_peak" "$threads" 10)
peak1=$(field fma_peak_gflops <<<"$("$tmp/fma_peak" 1 10)")
peak=$(field fma_peak_gflops <<<"$peak_line")
peak_isa=$(sed -n 's/.*isa=\([^ ]*\).*/\1/p' <<<"$peak_line")
machine="$cpu, $(nproc) cores, ISA: ${isa:-none of avx2/avx512f/amx}, measured fp32 FMA peak $(fmt "$peak" 1) GFLOP/s on $threads threads ($peak_isa; 1 thread: $(fmt "$peak1" 1))"

# --- msame vs ORT on the ten models -----------------------------------------------------------
models=("${BENCH_MODEL_NAMES[@]}")
declare -A onnx_of
ratios=()
rows=$tmp/msame_rows.md
: >"$rows"
for m in "${models[@]}"; do
  log "msame vs ORT: $m"
  onnx=$(bench_onnx "$m" "$root") || { echo "| $m | not measured: export failed (python3-torch) | | | | |" >>"$rows"; continue; }
  onnx_of[$m]=$onnx
  bench_prepare "$onnx" "$tmp" "$m" "$build" ||
    { echo "| $m | not measured: atc failed ($(tail -n1 "$tmp/$m.atc.log")) | | | | |" >>"$rows"; continue; }
  : >"$tmp/$m.msame.txt"
  : >"$tmp/$m.ort.txt"
  # shellcheck disable=SC2317  # called through alternate
  run_msame() { msame_summary "$build" "$tmp/$m.om" "$tmp/$m.in.npy" "$runs" "$threads" >>"$tmp/$m.msame.txt"; }
  # shellcheck disable=SC2317
  run_ort() { ort_run "$onnx" "$tmp/$m.in.npy" "$tmp/$m.ort" "$((runs + 1))" "$threads" >>"$tmp/$m.ort.txt"; }
  rtt_before=$(core_rtt)
  alternate "$rounds" run_msame run_ort || { echo "| $m | not measured: a run failed | | | | |" >>"$rows"; continue; }
  rtt_after=$(core_rtt)
  if [ "$(wc -l <"$tmp/$m.msame.txt")" != "$rounds" ] || [ "$(wc -l <"$tmp/$m.ort.txt")" != "$rounds" ]; then
    echo "| $m | not measured: a run failed | | | | |" >>"$rows"; continue
  fi
  for k in first_ms median_ms; do
    fields "$k" <"$tmp/$m.msame.txt" >"$tmp/$m.msame.$k"
    fields "$k" <"$tmp/$m.ort.txt" >"$tmp/$m.ort.$k"
  done
  per_round "$tmp/$m.msame.median_ms" "$tmp/$m.ort.median_ms" "$tmp/$m.ratio"
  r=$(med "$tmp/$m.ratio")
  ratios+=("$m $r")
  printf '| %s | %s | %s | %s | %s | %s |\n' "$m" "$(mmm "$tmp/$m.msame.median_ms")" "$(mmm "$tmp/$m.ort.median_ms")" \
    "$(mmm "$tmp/$m.ratio" 3)" "$(verdict "$r" "<=" 1.0)" "${rtt_before:-?} / ${rtt_after:-?}" >>"$rows"
done

# --- ResNet-50: startup, memory, conversion ----------------------------------------------------
m=resnet50
r50=0
if [ -f "$tmp/$m.om" ] && [ -s "$tmp/$m.msame.median_ms" ]; then
  r50=1
  log "resnet50: startup, memory, atc"
  onnx=${onnx_of[$m]}
  for f in load rss_ms rss_ort create atc; do : >"$tmp/r50.$f"; done
  # shellcheck disable=SC2317
  rss_msame() {
    bench_cmd /usr/bin/time -f %M -o "$tmp/time.txt" "$build/bin/msame" --model "$tmp/$m.om" \
      --input "$tmp/$m.in.npy" --loop 3 --threads "$threads" | field load_ms >>"$tmp/r50.load"
    cat "$tmp/time.txt" >>"$tmp/r50.rss_ms"
  }
  # shellcheck disable=SC2317
  rss_ort() {
    bench_cmd /usr/bin/time -f %M -o "$tmp/time.txt" node "$here/ort_tool.js" run "$onnx" "$tmp/$m.in.npy" \
      "$tmp/$m.ortrss" 3 "$threads" >/dev/null
    cat "$tmp/time.txt" >>"$tmp/r50.rss_ort"
  }
  # shellcheck disable=SC2317
  session() { bench_cmd node "$here/ort_tool.js" session "$onnx" "$threads" | field create_ms >>"$tmp/r50.create"; }
  # shellcheck disable=SC2317
  convert() {
    local s e
    s=$(date +%s%N)
    bench_cmd "$build/bin/atc" --model="$onnx" --framework=5 --output="$tmp/atc_$m" --soc_version=Ascend310P3 \
      --precision_mode=force_fp32 >/dev/null
    e=$(date +%s%N)
    echo $(((e - s) / 1000)) | awk '{ print $1 / 1000 }' >>"$tmp/r50.atc"
  }
  alternate "$rounds" rss_msame session convert rss_ort
  per_round "$tmp/r50.load" "$tmp/r50.create" "$tmp/r50.load_ratio"
  per_round "$tmp/r50.atc" "$tmp/r50.create" "$tmp/r50.atc_ratio"
  per_round "$tmp/$m.msame.first_ms" "$tmp/$m.msame.median_ms" "$tmp/r50.fs_ms"
  per_round "$tmp/$m.ort.first_ms" "$tmp/$m.ort.median_ms" "$tmp/r50.fs_ort"
  info=$(bench_cmd "$build/bin/atc" --mode=6 --om="$tmp/$m.om")
  om_weights=$(sed -n 's/.*weight_size\[\([0-9]*\) B\].*/\1/p' <<<"$info" | head -n1)
  # The model's weights, one plain copy: atc --mode=6's plain_size (older OMs: the weight section
  # less the packed copies, which were all stored beside the plain data).
  packed=$(sed -n 's/^packed   info:.* size\[\([0-9]*\) B\].*/\1/p' <<<"$info" | head -n1)
  weights=$(sed -n 's/^packed   info:.* plain_size\[\([0-9]*\) B\].*/\1/p' <<<"$info" | head -n1)
  [ -n "$weights" ] || weights=$((om_weights - ${packed:-0}))
  om_arena=$(sed -n 's/.*arena\[\([0-9]*\) B\].*/\1/p' <<<"$info" | head -n1)
  arena=$(bench_cmd "$build/bin/msame" --model "$tmp/$m.om" --threads "$threads" --debug true |
    sed -n 's/^ *arena \([0-9]*\) bytes.*/\1/p' | head -n1)
  arena_src="msame --debug's runtime arena"
  [ -n "$arena" ] || { arena=$om_arena; arena_src="the OM's planned arena (atc --mode=6)"; }
  flops_line=$(bench_cmd /usr/bin/python3 "$here/model_flops.py" "$onnx" 2>&1) || flops_line=
  flops=$(field flops <<<"$flops_line")
fi

# --- other tools: their own scripts, parsed -----------------------------------------------------
log "msprof: msprof_overhead.sh"
prof_out=$tmp/msprof.txt
prof_ok=1
echo "BUILD_DIR=$build ROUNDS=$prof_rounds RUNS=$prof_runs THREADS=$threads scripts/bench/msprof_overhead.sh resnet50" >>"$BENCH_CMDLOG"
BENCH_CMDLOG='' BUILD_DIR=$build ROUNDS=$prof_rounds RUNS=$prof_runs THREADS=$threads BENCH_OUT=$tmp/msprof \
  "$here/msprof_overhead.sh" resnet50 >"$prof_out" 2>&1 || prof_ok=0
cmp_ok=1 cmp_reason=
if ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  cmp_ok=0 cmp_reason="python3-numpy is missing (the peer)"
else
  log "mscompare: mscompare_bench.sh (SIZE_GB=$size_gb)"
  echo "BUILD_DIR=$build SIZE_GB=$size_gb RUNS=$cmp_runs scripts/bench/mscompare_bench.sh" >>"$BENCH_CMDLOG"
  BENCH_CMDLOG='' BUILD_DIR=$build SIZE_GB=$size_gb RUNS=$cmp_runs "$here/mscompare_bench.sh" >"$tmp/mscompare.txt" 2>&1 ||
    { cmp_ok=0 cmp_reason="mscompare_bench.sh failed: $(tail -n1 "$tmp/mscompare.txt")"; }
fi
opgen_ok=0 opgen_reason="opgen_kernel.sh compiles a plugin and its unit test with CMake; run with --opgen to include it"
if [ $with_opgen = 1 ]; then
  log "opgen: opgen_kernel.sh"
  echo "ROUNDS=$rounds RUNS=$runs scripts/bench/opgen_kernel.sh $build" >>"$BENCH_CMDLOG"
  if BENCH_CMDLOG='' ROUNDS=$rounds RUNS=$runs "$here/opgen_kernel.sh" "$build" >"$tmp/opgen.txt" 2>&1; then
    opgen_ok=1
  else
    opgen_reason="opgen_kernel.sh failed: $(tail -n1 "$tmp/opgen.txt")"
  fi
fi
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
stamp_after=$(bins_stamp)
elapsed=$(($(date +%s) - t_start))

# --- the report ---------------------------------------------------------------------------------
log "writing $dest"
: >"$md"
say "# Benchmarks"
say ""
say "Measured $started on: $machine."
say ""
say "Made by \`$invocation\` (BUILD_DIR=$build) in ${elapsed} s. Binaries: $("$build/bin/msame" --version | head -n1),"
say "built $built (the checkout beside the build is at $src_head). Load average before: $load_before; after: $load_after."
if [ "$stamp_before" != "$stamp_after" ]; then
  say "**The binaries were rebuilt during this run**: its figures mix two builds; run it again."
fi
if awk -v a="${load_before%% *}" -v b="${load_after%% *}" 'BEGIN { exit !(a >= 0.5 || b >= 0.5) }'; then
  say "**The machine was shared**: other work was running (see the load average against $(nproc) cores), so"
  say "absolute figures are noisier than on a quiet machine; ratios are paired within each round."
fi
if awk -v p="$peak" -v q="$peak1" -v n="$threads" 'BEGIN { exit !(n > 1 && p < 0.8 * n * q) }'; then
  say "The $threads-thread FMA peak is below 0.8 x $threads x the 1-thread one: the cores were not all free"
  say "while it ran, so the fractions of the peak below are overstated."
fi
if [ $quick = 1 ]; then
  say ""
  say "**Quick run** (\`--quick\`): $rounds rounds of $runs runs, a ${size_gb} GB mscompare input, $prof_rounds msprof rounds;"
  say "run \`scripts/bench/run.sh\` without \`--quick\` for the full figures (9 rounds of 30 runs)."
fi
say ""
if [ -n "${ONEDNN_MAX_CPU_ISA:-}" ]; then
  say ""
  say "**ISA capped**: msame and atc ran with \`ONEDNN_MAX_CPU_ISA=$ONEDNN_MAX_CPU_ISA\` (oneDNN's kernels and"
  say "the runtime's own paths and packed layouts follow it). ONNX Runtime's ISA: $ORT_CAP."
  say "The FMA peak above is measured at the cap's width."
fi
say "Every figure in the sections this script writes is measured in this run; the sections headed \"(issue N)\""
say "come from other scripts (named inside, with their dates) and are kept as the last file had them. A \"round\" runs each side"
say "once (one process each); the order of the sides alternates between rounds. Figures are the median"
say "over rounds, with (min–max) beside. Ratios are paired: each round's ratio, then their median."
say "† marks a figure whose max is above 1.5 x its min over rounds (an unsteady machine: read with care)."
say ""
say "## msame vs ONNX Runtime"
say ""
say "ONNX Runtime $(node -p "require('$here/node_modules/onnxruntime-node/package.json').version") (onnxruntime-node, graph optimisation \"all\", $threads intra-op threads);"
say "msame at \`--threads $threads\`, the OM from \`atc --precision_mode=force_fp32\`. Latency: the median of $runs timed"
say "runs after the first (msame's \`median_ms\`, ort_tool.js's \`median_ms\`), the run call alone, the same input."
say "Both are timed without input copies: msame's input is in its arena before the loop (Session::setInput), and"
say "onnxruntime-node binds the JS Float32Array as the input tensor's memory. ORT's timed call also makes its"
say "output tensors (4 KB for ResNet-50); msame's outputs stay in its arena until they are written after the loop."
say ""
say "The last column is the round trip of a cache line between the first two CPUs (\`core_latency.cpp\`),"
say "measured before and after the model's rounds: on the shared VM these tables were made on it was seen at"
say "about 100 ns (cores that share an L3) or about 300 ns (cores that do not), switching every few minutes; at"
say "300 ns msame's 2-thread runs were a quarter to a third slower, ORT's a tenth to a fifth, so the rows'"
say "ratios depend on it."
say ""
say "| model | msame ms | ORT ms | msame / ORT | target <= 1.0 | core RTT ns, before / after |"
say "|---|---|---|---|---|---|"
cat "$rows" >>"$md"
say ""
if [ ${#ratios[@]} -gt 0 ]; then
  gm_raw=$(printf '%s\n' "${ratios[@]}" | cut -d' ' -f2 |
    awk '{ s += log($1); n++ } END { printf "%.9f\n", exp(s / n) }')
  gm=$(fmt "$gm_raw" 3)
  worst=$(printf '%s\n' "${ratios[@]}" | sort -k2 -g | tail -n1)
  # The verdict on the value itself, not its 3 digits (1.0004 shows as 1.000 and misses).
  worst_raw=${worst#* }
  worst="${worst%% *} $(fmt "$worst_raw" 3)"
  say "| figure | value | target | |"
  say "|---|---|---|---|"
  say "| geometric mean of the ratios (${#ratios[@]} models) | $gm | <= 0.85 | $(verdict "$gm_raw" "<=" 0.85) |"
  say "| worst single model | ${worst#* } (${worst%% *}) | <= 1.0 | $(verdict "$worst_raw" "<=" 1.0) |"
  [ ${#ratios[@]} -eq ${#models[@]} ] || say "Only ${#ratios[@]} of ${#models[@]} models were measured (see the rows)."
else
  say "not measured: no model could be converted and run."
fi
say ""
# Sections other scripts measure (headings ending "(issue N)": the later opsets, throughput, shared
# machine, default threads) are kept from the file this run replaces, each with its own date and
# command inside; this run does not re-measure them.
if [ -f "$dest" ]; then
  awk '/^## / { keep = ($0 ~ /\(issue [0-9]+\)$/) } keep' "$dest" >"$tmp/kept.md"
  if [ -s "$tmp/kept.md" ]; then
    cat "$tmp/kept.md" >>"$md"
    log "kept $(grep -c '^## ' "$tmp/kept.md") section(s) other scripts measured from $dest"
  fi
fi
if [ $r50 = 1 ]; then
  say "## msame: ResNet-50 startup"
  say ""
  say "msame's \`load_ms\` (model load, before the first run) and ORT's \`InferenceSession.create\` alone"
  say "(\`ort_tool.js session\`, the module already loaded), $rounds rounds. First run / steady: \`first_ms\` /"
  say "\`median_ms\` of the msame vs ORT table's ResNet-50 rounds."
  say ""
  say "| figure | msame | ORT | target | |"
  say "|---|---|---|---|---|"
  lm=$(med "$tmp/r50.load")
  lr=$(med "$tmp/r50.load_ratio")
  fs=$(med "$tmp/r50.fs_ms")
  say "| load ms (msame) / session creation ms (ORT) | $(mmm "$tmp/r50.load") | $(mmm "$tmp/r50.create") | load <= 50 ms | $(verdict "$lm" "<=" 50) |"
  say "| load / ORT creation | $(mmm "$tmp/r50.load_ratio" 3) | | <= 0.1 | $(verdict "$lr" "<=" 0.1) |"
  say "| first run ms | $(mmm "$tmp/$m.msame.first_ms") | $(mmm "$tmp/$m.ort.first_ms") | | |"
  say "| steady (median) ms | $(mmm "$tmp/$m.msame.median_ms") | $(mmm "$tmp/$m.ort.median_ms") | | |"
  say "| first / steady | $(mmm "$tmp/r50.fs_ms" 3) | $(mmm "$tmp/r50.fs_ort" 3) | msame <= 1.3 | $(verdict "$fs" "<=" 1.3) |"
  say ""
  # What a user waits for (the process from start to outputs written), and the integrity check's
  # share of the load: startup.sh, its own alternating rounds.
  log "resnet50: startup.sh (whole process, integrity check)"
  echo "BUILD_DIR=$build ROUNDS=$rounds THREADS=$threads scripts/bench/startup.sh resnet50" >>"$BENCH_CMDLOG"
  if st=$(BENCH_CMDLOG='' BUILD_DIR=$build ROUNDS=$rounds THREADS=$threads "$here/startup.sh" resnet50 2>"$tmp/startup.err"); then
    mm() { printf '%s (%s–%s)' "$(fmt "$(field "$1" <<<"$st")" "${2:-1}")" \
      "$(fmt "$(sed -n -E "s/^$1=[^ ]* min=([^ ]*).*/\1/p" <<<"$st")" "${2:-1}")" \
      "$(fmt "$(sed -n -E "s/^$1=.* max=([^ ]*).*/\1/p" <<<"$st")" "${2:-1}")"; }
    wr=$(field whole_ratio <<<"$st")
    vs=$(field verify_share <<<"$st")
    say "Whole process: \`msame --loop 1 --output\` timed from outside, start to outputs written, against ORT's"
    say "\`InferenceSession.create\` + first run inside node (node's own start and module load excluded). Check:"
    say "Session::load (\`load_ms\`) with every byte of the OM checked (the weights hashed on a helper thread"
    say "while the kernels are built) against \`--skip_verify=true\`, paired per round: (load - skipped) / load."
    say "\`scripts/bench/startup.sh\`, $rounds rounds."
    say ""
    say "| figure | msame | ORT | target | |"
    say "|---|---|---|---|---|"
    say "| whole process ms / create + first run ms | $(mm msame_whole_ms) | $(mm ort_create_first_ms) | | |"
    say "| whole process / ORT create + first run | $(mm whole_ratio 3) | | <= 0.25 | $(verdict "$wr" "<=" 0.25) |"
    say "| load ms, checked / skipped | $(mm load_ms) / $(mm load_skip_verify_ms) | | | |"
    say "| the check's share of the load | $(mm verify_share 3) | | <= 0.10 | $(verdict "$vs" "<=" 0.10) |"
  else
    say "Whole process and integrity check: not measured (startup.sh failed: $(tail -n1 "$tmp/startup.err"))."
  fi
  say ""
  say "## msame: ResNet-50 memory"
  say ""
  rss=$(med "$tmp/r50.rss_ms")
  need=$((weights + arena))
  mem_raw=$(awk -v k="$rss" -v b="$need" 'BEGIN { printf "%.9f", k * 1024 / b }')
  mem_ratio=$(fmt "$mem_raw" 3)
  say "Peak RSS from \`/usr/bin/time -f %M\` of \`msame --loop 3\` (msame) and of \`ort_tool.js run ... 3\` (ORT: the"
  say "whole node process as it is, its runtime's baseline included). Weights: the model's, as plain fp32 (\`plain_size\`"
  say "of \`atc --mode=6\`; the OM's weight section holds $om_weights B: most weights only in this CPU's packed layouts,"
  say "the others plain); arena: $arena_src (the OM plans $om_arena B)."
  say ""
  say "| figure | msame | ORT | target | |"
  say "|---|---|---|---|---|"
  say "| peak RSS MiB | $(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }') | $(awk -v k="$(med "$tmp/r50.rss_ort")" 'BEGIN { printf "%.1f", k / 1024 }') (node process) | | |"
  say "| weights + arena MiB | $(awk -v w="$weights" -v a="$arena" 'BEGIN { printf "%.1f + %.1f", w / 1048576, a / 1048576 }') (the .onnx file: $(awk -v b="$(stat -c %s "$onnx")" 'BEGIN { printf "%.1f", b / 1048576 }')) | | | |"
  say "| peak RSS / (weights + arena) | $mem_ratio | | <= 1.2 | $(verdict "$mem_raw" "<=" 1.2) |"
  say "| peak RSS / (OM weight section + arena), for reference | $(awk -v k="$rss" -v b="$((om_weights + arena))" 'BEGIN { printf "%.3f", k * 1024 / b }') | | | |"
  say ""
  say "## msame: ResNet-50 fraction of the FMA peak"
  say ""
  if [ -n "$flops" ]; then
    fr_ms=$(awk -v f="$flops" -v t="$(med "$tmp/$m.msame.median_ms")" -v p="$peak" 'BEGIN { printf "%.3f", f / (t / 1000) / 1e9 / p }')
    fr_ort=$(awk -v f="$flops" -v t="$(med "$tmp/$m.ort.median_ms")" -v p="$peak" 'BEGIN { printf "%.3f", f / (t / 1000) / 1e9 / p }')
    say "One inference: $(awk -v f="$flops" 'BEGIN { printf "%.3f", f / 1e9 }') GFLOP (2 x the multiply-accumulates of Conv and Gemm/MatMul, \`model_flops.py\`: $flops_line),"
    say "over the median latency, over the measured peak ($(fmt "$peak" 1) GFLOP/s)."
    say ""
    say "| figure | msame | ORT | target | |"
    say "|---|---|---|---|---|"
    say "| achieved GFLOP/s | $(awk -v f="$flops" -v t="$(med "$tmp/$m.msame.median_ms")" 'BEGIN { printf "%.1f", f / t / 1e6 }') | $(awk -v f="$flops" -v t="$(med "$tmp/$m.ort.median_ms")" 'BEGIN { printf "%.1f", f / t / 1e6 }') | | |"
    say "| fraction of the FMA peak | $fr_ms | $fr_ort | above ORT's | $(verdict "$fr_ms" ">" "$fr_ort") |"
  else
    say "not measured: model_flops.py failed (${flops_line:-python3-onnx missing?})."
  fi
  say ""
  say "## atc"
  say ""
  say "Wall time of \`atc --precision_mode=force_fp32\` on ResNet-50 (the whole process) against ORT's session"
  say "creation (the peer's compile step), $rounds rounds."
  say ""
  am=$(med "$tmp/r50.atc")
  ar=$(med "$tmp/r50.atc_ratio")
  say "| figure | atc | ORT | target | |"
  say "|---|---|---|---|---|"
  say "| ResNet-50 conversion ms (atc) / session creation ms (ORT) | $(mmm "$tmp/r50.atc") | $(mmm "$tmp/r50.create") | atc < 1000 ms | $(verdict "$am" "<=" 1000) |"
  say "| atc / ORT creation | $(mmm "$tmp/r50.atc_ratio" 3) | | <= 0.5 | $(verdict "$ar" "<=" 0.5) |"
else
  say "## msame: ResNet-50 startup, memory, FMA peak; atc"
  say ""
  say "not measured: ResNet-50 could not be converted or run (see the msame vs ORT table)."
fi
say ""
say "## msprof"
say ""
if [ $prof_ok = 1 ] && grep -q 'overhead' "$prof_out"; then
  read -r pa pb pp < <(sed -n 's/.*median: msame \([0-9.]*\) ms, under msprof \([0-9.]*\) ms, overhead \([-0-9.]*\) %.*/\1 \2 \3/p' "$prof_out")
  read -r qa qb qp < <(sed -n 's/.*minimum: msame \([0-9.]*\) ms, under msprof \([0-9.]*\) ms, overhead \([-0-9.]*\) %.*/\1 \2 \3/p' "$prof_out")
  gap=$(sed -n 's/.*time between ops.*: \([0-9.]*\) %.*/\1/p' "$prof_out")
  read -r rp rlo rhi < <(sed -n 's/.*paired: the median of the rounds. overheads \([-0-9.]*\) % (rounds \([-0-9.]*\) to \([-0-9.]*\) %).*/\1 \2 \3/p' "$prof_out")
  say "\`msprof_overhead.sh\`: ResNet-50 (default precision) with msame alone and under msprof, interleaved,"
  say "$prof_rounds rounds of $prof_runs runs, msame's median latency. The peer is msame without msprof. The figure"
  say "judged is each round's overhead (its two sides measured one after the other), their median."
  say ""
  say "| figure | under msprof | msame alone | overhead | target | |"
  say "|---|---|---|---|---|---|"
  say "| overhead per round, median (min–max) | | | $rp % ($rlo – $rhi) | <= 2 % | $(verdict "$rp" "<=" 2) |"
  say "| median latency ms | $pb | $pa | $pp % | | |"
  say "| minimum latency ms | $qb | $qa | $qp % | | |"
  say "| time between ops (observer cost, upper bound) | $gap % | | | | |"
else
  say "not measured: msprof_overhead.sh failed ($(tail -n1 "$prof_out"))."
fi
say ""
say "## mscompare"
say ""
if [ $cmp_ok = 1 ] && grep -q '^mscompare ' "$tmp/mscompare.txt"; then
  read -r _ ca cg cr < <(grep '^mscompare ' "$tmp/mscompare.txt")
  read -r _ na ng nr < <(grep '^numpy ' "$tmp/mscompare.txt")
  say "\`mscompare_bench.sh\`: $(sed -n 's/^input: //p' "$tmp/mscompare.txt"); the peer is a blockwise"
  say "numpy script (\`mscompare_numpy.py\`), interleaved, warm page cache. No target is set for this ratio."
  say ""
  say "| figure | mscompare | numpy | numpy / mscompare |"
  say "|---|---|---|---|"
  say "| median wall s | $ca | $na | $(ratio "$na" "$ca") |"
  say "| GB/s | $cg | $ng | |"
  say "| peak RSS MB | $cr | $nr | |"
else
  say "not measured: ${cmp_reason:-mscompare_bench.sh printed no result}."
fi
say ""
say "## opgen"
say ""
if [ $opgen_ok = 1 ]; then
  say "\`opgen_kernel.sh\` (its own output):"
  say ""
  say '```'
  grep -v '^machine:' "$tmp/opgen.txt" >>"$md"
  say '```'
else
  say "not measured: $opgen_reason."
fi
say ""
say "## Commands"
say ""
say "Every command this run timed or read, once each; \`\$TMP\` is the run's temp folder, \`<model>\` each"
say "benchmark model (the ResNet-50 sections use resnet50). Rounds: $rounds, runs per round: $runs."
say ""
say '```'
names=$(IFS='|'; echo "${models[*]}")
sed -E "s#$tmp#\$TMP#g; s#$root/##g; s#/?[^ =]*/(bench-models/)#\1#g" "$BENCH_CMDLOG" |
  awk -v names="$names" '/^\/usr\/bin\/time|--mode=6|--debug|model_flops|atc_resnet50|session|^BUILD_DIR=/ { if (!seen[$0]++) print; next }
    { gsub("(" names ")", "<model>"); if (!seen[$0]++) print }' >>"$md"
say '```'
mkdir -p "$(dirname "$dest")"
cp "$md" "$dest"
log "done in $(($(date +%s) - t_start)) s: $dest"
