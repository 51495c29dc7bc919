// fma_peak.cpp: the measured fp32 FMA peak of this machine, for scripts/bench/run.sh (not part of
// the CMake build). Each thread (one per core, or argv[1]) runs kChains independent FMA chains
// on AVX-512 registers when the compiler targets avx512f, else AVX2+FMA; the best of the
// timed passes over all threads together (argv[2] passes, default 5) is printed as
// "fma_peak_gflops=<GFLOP/s> isa=<isa> threads=<n> ...".
// Build: c++ -O2 -march=native -pthread fma_peak.cpp -o fma_peak; run: ./fma_peak [threads]
// [passes]
#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

#if defined(__AVX512F__)
using Vec = __m512;
constexpr int kLanes = 16;
constexpr const char* kIsa = "avx512f";
inline Vec splat(float x) { return _mm512_set1_ps(x); }
inline Vec fma(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
inline Vec add(Vec a, Vec b) { return _mm512_add_ps(a, b); }
inline float sum(Vec v) {
  alignas(64) float f[16];
  _mm512_store_ps(f, v);
  float s = 0;
  for (float x : f) s += x;
  return s;
}
#elif defined(__AVX2__) && defined(__FMA__)
using Vec = __m256;
constexpr int kLanes = 8;
constexpr const char* kIsa = "avx2+fma";
inline Vec splat(float x) { return _mm256_set1_ps(x); }
inline Vec fma(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
inline Vec add(Vec a, Vec b) { return _mm256_add_ps(a, b); }
inline float sum(Vec v) {
  alignas(32) float f[8];
  _mm256_store_ps(f, v);
  float s = 0;
  for (float x : f) s += x;
  return s;
}
#else
#error "fma_peak needs AVX2+FMA or AVX-512 (compile with -march=native on such a CPU)"
#endif

// Enough independent chains to cover FMA latency (4 cycles) times two FMA ports.
constexpr int kChains = 12;        // c0..c11 in chains()
constexpr long kIters = 1L << 26;  // per pass and thread: kIters * kChains * kLanes * 2 flops

float chains(long iters, float seed) {
  // Named accumulators, not an array: kept in registers at -O2 (an array loop spills to memory).
  Vec c0 = splat(seed), c1 = splat(seed + 0.001f), c2 = splat(seed + 0.002f),
      c3 = splat(seed + 0.003f);
  Vec c4 = splat(seed + 0.004f), c5 = splat(seed + 0.005f), c6 = splat(seed + 0.006f),
      c7 = splat(seed + 0.007f);
  Vec c8 = splat(seed + 0.008f), c9 = splat(seed + 0.009f), c10 = splat(seed + 0.010f),
      c11 = splat(seed + 0.011f);
  const Vec a = splat(0.999999f), b = splat(1e-7f);
  for (long i = 0; i < iters; ++i) {
    c0 = fma(c0, a, b);
    c1 = fma(c1, a, b);
    c2 = fma(c2, a, b);
    c3 = fma(c3, a, b);
    c4 = fma(c4, a, b);
    c5 = fma(c5, a, b);
    c6 = fma(c6, a, b);
    c7 = fma(c7, a, b);
    c8 = fma(c8, a, b);
    c9 = fma(c9, a, b);
    c10 = fma(c10, a, b);
    c11 = fma(c11, a, b);
  }
  Vec t = add(add(add(c0, c1), add(c2, c3)), add(add(c4, c5), add(c6, c7)));
  return sum(add(t, add(add(c8, c9), add(c10, c11))));
}

}  // namespace

int main(int argc, char** argv) {
  unsigned threads =
      argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : std::thread::hardware_concurrency();
  if (threads == 0) threads = 1;
  const int trials = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  double best = 0;
  float sink = 0;
  for (int t = 0; t < trials; ++t) {
    std::atomic<unsigned> ready{0};
    std::atomic<bool> go{false};
    std::vector<float> out(threads);
    std::vector<std::thread> pool;
    for (unsigned k = 0; k < threads; ++k) {
      pool.emplace_back([&, k] {
        ready.fetch_add(1);
        while (!go.load(std::memory_order_acquire)) {
        }
        out[k] = chains(kIters, 1.0f + k);
      });
    }
    while (ready.load() != threads) {
    }
    auto t0 = std::chrono::steady_clock::now();
    go.store(true, std::memory_order_release);
    for (auto& th : pool) th.join();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double flops = 2.0 * kLanes * kChains * static_cast<double>(kIters) * threads;
    best = std::max(best, flops / s / 1e9);
    for (float x : out) sink += x;
  }
  std::printf("fma_peak_gflops=%.1f isa=%s threads=%u lanes=%d (checksum %g)\n", best, kIsa,
              threads, kLanes, static_cast<double>(sink));
  return 0;
}
