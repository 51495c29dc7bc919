#!/usr/bin/env bash
# opgen_kernel.sh [BUILD_DIR]: what a custom Ascend C operator costs.
#   1. how long `opgen gen` plus `opgen compile` (build.sh: plugin and UT) take for one op;
#   2. msame latency of LeakyReluCustom (the opgen template with one LeakyRelu vector call) next
#      to the built-in LeakyRelu, on the same [1,64,128,128] fp32 tensor: rounds alternate the
#      order, ROUNDS medians of RUNS runs each;
#   3. the floor of the kernel's shape: the same copy-in, compute, copy-out over 8 blocks of
#      tiles (a copy loop, the LeakyRelu loop, a copy loop, all vectorized for this CPU at its
#      widest: glibc's memcpy moves 8 KiB with `rep movsb`, slower on AMD Zen 5) on plain C++
#      arrays, against one direct loop,
#      at the same threads. No Ascend C layer can beat its kernel's own data movement, so read
#      line 2's ratio beside this one.
# Env: ROUNDS (default 5), RUNS (default 100), THREADS (default 2, issue 30's figure: the kernel's
# blocks share msame's threads, and the built-in kernel and the floor get the same count).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
source "$root/scripts/bench/lib.sh"
ROUNDS=${ROUNDS:-5} RUNS=${RUNS:-100} THREADS=${THREADS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
bin="$work/prefix/bin"
cat > ops.json <<'JSON'
[{"op": "LeakyReluCustom",
  "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "attr": [{"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.01"}]}]
JSON
t0=$(date +%s.%N)
"$bin/opgen" gen -i ops.json -c ai_core-ascend310p -lan cpp -f onnx -out proj >/dev/null
t1=$(date +%s.%N)
sed -i 's|    DataCopy(yLocal, xLocal, AlignedCount<DTYPE_Y>(count));|    LeakyRelu(yLocal, xLocal, (DTYPE_Y)tiling_.negative_slope, count);|' \
  proj/op_kernel/leaky_relu_custom.cpp
sed -i 's|  for (size_t i = 0; i < n; ++i) y\[i\] = x\[i\];|  for (size_t i = 0; i < n; ++i) y[i] = x[i] >= 0 ? x[i] : x[i] * tiling.negative_slope;|' \
  proj/testcases/common/leaky_relu_custom_reference.h
"$bin/opgen" compile -i proj -q >/dev/null
t2=$(date +%s.%N)
plugin="$work/proj/build_out/vendors/customize"

proto=/usr/include/onnx/onnx.proto
for op in LeakyRelu LeakyReluCustom; do
  cat > $op.textproto <<TXT
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "g"
  node { op_type: "$op" name: "n" input: "x" output: "y" attribute { name: "negative_slope" type: FLOAT f: 0.01 } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 64 } dim { dim_value: 128 } dim { dim_value: 128 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 64 } dim { dim_value: 128 } dim { dim_value: 128 } } } } }
}
TXT
  # ONNX's LeakyRelu calls the attribute alpha.
  [ $op = LeakyRelu ] && sed -i 's/negative_slope/alpha/' $op.textproto
  protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < $op.textproto > $op.onnx
  "$bin/atc" --model=$op.onnx --framework=5 --output=$op --soc_version=Ascend310P3 \
    --precision_mode=force_fp32 --op_plugin_path="$plugin" >/dev/null
done

measure() {  # measure MODEL: msame's median_ms over RUNS runs
  "$bin/msame" --model "$1.om" --loop "$RUNS" --threads "$THREADS" --op_plugin_path "$plugin" \
    --random_input 1 | sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p'
}
measure LeakyRelu >/dev/null  # untimed: both models once, so neither round 1 pays first loads
measure LeakyReluCustom >/dev/null
: > builtin.txt
: > custom.txt
for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) -eq 1 ]; then
    measure LeakyRelu >> builtin.txt; measure LeakyReluCustom >> custom.txt
  else
    measure LeakyReluCustom >> custom.txt; measure LeakyRelu >> builtin.txt
  fi
done
# The floor (3): the tile is the one the generated op_host picks (kTileBytes).
tile_bytes=$(sed -n 's/.*kTileBytes = \([0-9]*\);.*/\1/p' proj/op_host/leaky_relu_custom.cpp)
cat > floor.cpp <<'CPP'
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
static void leaky(float* y, const float* x, long n, float s) {
  for (long i = 0; i < n; ++i) y[i] = x[i] > 0 ? x[i] : x[i] * s;
}
static void copy(float* y, const float* x, long n) {
  for (long i = 0; i < n; ++i) y[i] = x[i];
}
int main(int argc, char** argv) {
  const long n = 1L << 20, blocks = 8, per = n / blocks, tile = std::atol(argv[1]) / 4;
  const int runs = std::atoi(argv[2]);
  std::vector<float> x(n), y(n);
  for (long i = 0; i < n; ++i) x[i] = float(i % 7) - 3;
  auto median = [&](auto f) {
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
      auto a = std::chrono::steady_clock::now();
      f();
      t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };
  const double direct = median([&] {
#pragma omp parallel for
    for (long b = 0; b < blocks; ++b) leaky(&y[b * per], &x[b * per], per, 0.01f);
  });
  const double tiled = median([&] {
#pragma omp parallel for
    for (long b = 0; b < blocks; ++b) {
      std::vector<float> in(tile), out(tile);
      for (long o = b * per; o < (b + 1) * per; o += tile) {
        copy(in.data(), &x[o], tile);
        leaky(out.data(), in.data(), tile, 0.01f);
        copy(&y[o], out.data(), tile);
      }
    }
  });
  std::printf("%.3f %.3f\n", direct, tiled);
}
CPP
# -fno-tree-loop-distribute-patterns keeps the copy loops from becoming memcpy calls.
g++ -std=c++17 -O3 -march=native -mprefer-vector-width=512 -fno-tree-loop-distribute-patterns \
  -fno-trapping-math -fopenmp floor.cpp -o floor
read -r fd ft < <(OMP_NUM_THREADS=$THREADS ./floor "$tile_bytes" 2000)
b=$(median < builtin.txt)
c=$(median < custom.txt)
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores"
printf 'opgen gen: %.2f s; opgen compile (plugin + UT build and run): %.1f s\n' \
  "$(echo "$t1 - $t0" | awk '{ print $1 - $3 }')" "$(echo "$t2 - $t1" | awk '{ print $1 - $3 }')"
echo "msame median latency, [1,64,128,128] fp32, $THREADS thread(s), $ROUNDS rounds x $RUNS runs:"
echo "  built-in LeakyRelu        ${b} ms"
echo "  LeakyReluCustom (Ascend C) ${c} ms  ($(awk -v b="$b" -v c="$c" 'BEGIN { printf "%.2f", c / b }') x the built-in)"
echo "the kernel's own shape on plain arrays, ${tile_bytes}-byte tiles, 8 blocks, $THREADS thread(s):"
echo "  one direct loop             ${fd} ms"
echo "  copy in, compute, copy out  ${ft} ms  ($(awk -v b="$fd" -v c="$ft" 'BEGIN { printf "%.2f", c / b }') x the direct loop: the floor for line 2)"
