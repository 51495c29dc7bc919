# shellcheck shell=bash
# lib.sh: what the benchmark scripts share (sourced, not run).
# The ten benchmark models of scripts/bench/export_models.py, in table order.
# shellcheck disable=SC2034  # used by the scripts that source this file
BENCH_MODEL_NAMES=(resnet18 resnet50 mobilenet_v2 squeezenet1_1 shufflenet_v2_x1_0 efficientnet_b0
  densenet121 googlenet transformer unet)
# median: the median of the numbers on stdin, one per line.
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
# ensure_ort: installs the peer, onnxruntime-node at the version package-lock.json pins (npm ci,
# its install script off: the CPU build ships in the package), beside these scripts.
# It also caps the peer's ISA as msame's is capped (ort_cap).
ensure_ort() {
  local dir
  dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  if [ ! -d "$dir/node_modules/onnxruntime-node" ]; then
    echo "installing onnxruntime-node (benchmarks only)..." >&2
    (cd "$dir" && ONNXRUNTIME_NODE_INSTALL=skip ONNXRUNTIME_NODE_INSTALL_CUDA=skip \
      npm ci --no-audit --no-fund >/dev/null) || return 1
  fi
  ort_cap "$dir"
}
# ort_cap DIR: the peer at msame's ISA. msame and atc follow ONEDNN_MAX_CPU_ISA; ONNX Runtime has
# no such switch. With ONEDNN_MAX_CPU_ISA=AVX2 on a CPU with AVX-512, it builds cpuid_cap.so
# (cpuid_cap.c) into DIR/node_modules, and every `node` the scripts run loads it, so that MLAS
# sees an AVX2 CPU and takes its AVX2 kernels. ORT_CAP says how the peer ran, for the reports.
ORT_CAP="not capped: no ISA cap asked (ONEDNN_MAX_CPU_ISA unset)"
ORT_CAP_SO=
ort_cap() {
  local isa=${ONEDNN_MAX_CPU_ISA:-}
  [ -n "$isa" ] || return 0
  case ${isa^^} in
    AVX2 | AVX2_VNNI | AVX2_VNNI_2) ;;
    *) ORT_CAP="not capped: cpuid_cap.c caps at AVX2 only, not at $isa"; return 0 ;;
  esac
  if ! grep -qw avx512f /proc/cpuinfo; then
    ORT_CAP="AVX2: the CPU has no AVX-512"
    return 0
  fi
  if ! grep -qw cpuid_fault /proc/cpuinfo; then
    ORT_CAP="not capped: this CPU or kernel lacks cpuid_fault, so ORT used AVX-512"
    echo "bench: $ORT_CAP" >&2
    return 0
  fi
  ORT_CAP_SO=$1/node_modules/.asc_cpuid_cap.so
  if [ ! -f "$ORT_CAP_SO" ] || [ "$1/cpuid_cap.c" -nt "$ORT_CAP_SO" ]; then
    cc -O2 -shared -fPIC "$1/cpuid_cap.c" -o "$ORT_CAP_SO" || { ORT_CAP_SO=; return 1; }
  fi
  ORT_CAP="AVX2: its AVX-512 hidden by scripts/bench/cpuid_cap.c (CPUID faults and is answered without AVX-512)"
}
# node ARGS: node, loading cpuid_cap.so when ort_cap set it up (V8's WebAssembly trap handler
# would take cpuid_cap's SIGSEGV handler's place, so it is off: ORT runs no WebAssembly here).
node() {
  if [ -n "$ORT_CAP_SO" ]; then
    LD_PRELOAD=$ORT_CAP_SO command node --disable-wasm-trap-handler "$@"
  else
    command node "$@"
  fi
}
# core_rtt: the round trip of a cache line between the first two CPUs in ns (core_latency.cpp,
# built on first use into node_modules beside these scripts), empty when it cannot run. A shared
# VM's vCPUs move between cores that share an L3 (about 100 ns) and cores that do not (about 300
# ns); 2-thread figures move with them, so the scripts print it beside each model.
core_rtt() {
  local dir bin
  dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  bin=$dir/node_modules/.asc_core_latency
  if [ ! -x "$bin" ] || [ "$dir/core_latency.cpp" -nt "$bin" ]; then
    mkdir -p "$dir/node_modules" && c++ -O2 -pthread "$dir/core_latency.cpp" -o "$bin" 2>/dev/null || return 0
  fi
  "$bin" 2>/dev/null | field core_rtt_ns
}
# bench_cmd CMD...: runs CMD, first appending it to the file $BENCH_CMDLOG when that is set (run.sh
# lists the commands it timed).
bench_cmd() {
  [ -z "${BENCH_CMDLOG:-}" ] || printf '%s\n' "$*" >>"$BENCH_CMDLOG"
  "$@"
}
# bench_onnx NAME ROOT: the path of benchmark model NAME: $BENCH_MODELS/NAME.onnx (default
# ROOT/bench-models), exported by export_models.py (python3-torch) when missing.
bench_onnx() {
  local dir=${BENCH_MODELS:-$2/bench-models}
  if [ ! -f "$dir/$1.onnx" ]; then
    /usr/bin/python3 "$2/scripts/bench/export_models.py" "$1" >/dev/null 2>&1 || return 1
    dir=$2/bench-models
  fi
  echo "$dir/$1.onnx"
}
# bench_prepare ONNX OUT NAME BUILD: converts ONNX with atc (--precision_mode=force_fp32) into
# OUT/NAME.om (log OUT/NAME.atc.log) and writes OUT/NAME.in.npy, the fixed-seed random input
# both msame and ORT are timed on. Fails when atc does.
bench_prepare() {
  local shape
  bench_cmd "$4/bin/atc" --model="$1" --framework=5 --output="$2/$3" --soc_version=Ascend310P3 \
    --precision_mode=force_fp32 >"$2/$3.atc.log" || return 1
  shape=$("$4/bin/atc" --mode=6 --om="$2/$3.om" | sed -n 's/.*inputs\[[^:]*:float32:\[\([0-9,]*\)\]\].*/\1/p')
  node "$(dirname "${BASH_SOURCE[0]}")/ort_tool.js" gen "$2/$3.in.npy" "$shape" 7767517
}
# msame_summary BUILD OM INPUT RUNS THREADS: msame's "[INFO] summary: load_ms=..." line for RUNS
# runs of OM on INPUT (the run call alone is timed: Session::run).
msame_summary() {
  bench_cmd "$1/bin/msame" --model "$2" --input "$3" --loop "$4" --threads "$5" | grep 'summary:'
}
# ort_run ONNX INPUT PREFIX RUNS THREADS: ort_tool.js run's JSON line (create_ms, first_ms,
# median_ms over RUNS - 1 runs after the first), ORT at THREADS intra-op threads.
ort_run() {
  bench_cmd node "$(dirname "${BASH_SOURCE[0]}")/ort_tool.js" run "$@"
}
# field NAME: the number NAME=x (msame's summary) or "NAME":x (ort_tool.js JSON) on stdin.
field() { sed -n -E "s/.*(^|[ {,])\"?$1\"?[=:]([-0-9.eE+]+).*/\2/p" | head -n1; }
# alternate ROUNDS CMD...: runs the commands (function names) ROUNDS times, in the given order in
# odd rounds and reversed in even ones, so no side always runs on a cooler machine.
alternate() {
  local r i rounds=$1
  shift
  for r in $(seq "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then
      for ((i = 1; i <= $#; i++)); do "${!i}"; done
    else
      for ((i = $#; i >= 1; i--)); do "${!i}"; done
    fi
  done
}
# stats: "min median max" of the numbers on stdin.
stats() {
  local v
  v=$(sort -g)
  printf '%s %s %s\n' "$(head -n1 <<<"$v")" "$(median <<<"$v")" "$(tail -n1 <<<"$v")"
}
# geomean: the geometric mean of the positive numbers on stdin.
geomean() { awk '{ s += log($1); n++ } END { if (n) printf "%.3f\n", exp(s / n) }'; }
