#!/usr/bin/env bash
# acl.sh [--models "resnet50 ..."] [--rounds N]: AscendCL (libascendcl) against the runtime it
# wraps and against msame (docs/acl.md, "Speed" and "Same bytes").
#  1. On every benchmark model (lib.sh), the sample application of tests/acl/sample_app, built
#     against an installed prefix as a user builds it, gives msame's output bytes on the same input.
#  2. acl_overhead (this folder) times aclmdlExecute against the bare Session (setInput + run) on
#     ResNet-50 and on the digits model, alternating sides, medians of per-call times.
# Targets (issue 33): overhead at most 2 % on ResNet-50 and at most 20 us per call on digits.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
# shellcheck source=lib.sh
source "$ROOT/scripts/bench/lib.sh"
models=("${BENCH_MODEL_NAMES[@]}")
rounds=10
while [ $# -gt 0 ]; do
  case $1 in
    --models) read -r -a models <<<"$2"; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "acl.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d /tmp/asc-acl-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
cmake --install "$BUILD" --prefix "$work/prefix" >/dev/null
# shellcheck disable=SC1091
source "$work/prefix/set_env.sh"
export DDK_PATH=$ASCEND_HOME_PATH NPU_HOST_LIB=$ASCEND_HOME_PATH/runtime/lib64/stub
cp -r "$ROOT/tests/acl/sample_app" "$work/app" && rm -rf "$work/app/out"
cmake -S "$work/app" -B "$work/app/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/app/build" >/dev/null
g++ -std=c++17 -O2 "$ROOT/scripts/bench/acl_overhead.cpp" -o "$work/acl_overhead" \
  -I"$ASCEND_HOME_PATH/runtime/include" -I"$ASCEND_HOME_PATH/include" \
  -L"$ASCEND_HOME_PATH/runtime/lib64" -L"$(dirname "$(find "$ASCEND_HOME_PATH" -name libasccore.so | head -1)")" \
  -lascendcl -lasccore -lfmt
echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| model | outputs | sample app = msame |"
echo "|---|---|---|"
same_all=1
for name in "${models[@]}"; do
  onnx=$(bench_onnx "$name" "$ROOT") || { echo "| $name | - | model missing |"; same_all=0; continue; }
  bench_prepare "$onnx" "$work" "$name" "$BUILD" >/dev/null
  /usr/bin/python3 -c "import numpy as np, sys; np.load(sys.argv[1]).tofile(sys.argv[2])" \
    "$work/$name.in.npy" "$work/$name.in.bin"
  rm -rf "$work/ms" "$work/o" && mkdir -p "$work/o"
  "$BUILD/bin/msame" --model "$work/$name.om" --input "$work/$name.in.bin" --output "$work/ms" >/dev/null
  "$work/app/out/main" "$work/$name.om" "$work/o" --input "$work/$name.in.bin" >/dev/null
  n=0 ok=1
  for f in "$work"/o/output_*.bin; do
    i=${f##*output_}; i=${i%.bin}
    cmp -s "$f" "$(ls "$work"/ms/*/"${name}_output_$i.bin")" || ok=0
    n=$((n + 1))
  done
  [ $ok = 1 ] || same_all=0
  echo "| $name | $n | $([ $ok = 1 ] && echo "identical" || echo "DIFFERENT") |"
done
echo
echo "| model | bare Session (us/call) | aclmdlExecute (us/call) | overhead | target |"
echo "|---|---|---|---|---|"
digits_om="$work/digits"
"$BUILD/bin/atc" --model="$ROOT/models/digits/digits.onnx" --framework=5 --output="$digits_om" \
  --soc_version=Ascend310P3 --precision_mode=force_fp32 >/dev/null
r50=$(bench_onnx resnet50 "$ROOT")
[ -f "$work/resnet50.om" ] || bench_prepare "$r50" "$work" resnet50 "$BUILD" >/dev/null
for m in resnet50 digits; do
  om="$work/$m.om"
  calls=$([ $m = digits ] && echo 2000 || echo 5)
  line=$("$work/acl_overhead" "$om" "$rounds" "$calls")
  b=$(echo "$line" | field bare_us) a=$(echo "$line" | field acl_us)
  d=$(echo "$line" | field overhead_us) p=$(echo "$line" | field overhead_pct)
  target=$([ $m = digits ] && echo "<= 20 us" || echo "<= 2 %")
  echo "| $m | $b | $a | $d us ($p %) | $target |"
done
[ $same_all = 1 ]
