// kld_kernel.cpp: compiled with -ffast-math (see libasccore/CMakeLists.txt) so that std::log
// vectorizes through libmvec. Inputs are finite by contract (the caller skips this pass and
// reports NaN when either side has a NaN or an infinity).
#include "compare/kld_kernel.h"

#include <cfloat>
#include <cmath>

namespace asc::compare::detail {

namespace {
template <typename T>
void kldChunkT(const T* x, const T* y, size_t n, double min_x, double range_x, double min_y,
               double range_y, KldSums* s) {
  // msprobe clamps with the float32 epsilon (ascend-facts.md 5.2).
  const double eps32 = FLT_EPSILON;
  const double sx = range_x != 0 ? 1.0 / range_x : 1.0, ox = range_x != 0 ? min_x : 0.0;
  const double sy = range_y != 0 ? 1.0 / range_y : 1.0, oy = range_y != 0 ? min_y : 0.0;
  // ln(p_x / p_y) in float (eight lanes of division and of libmvec's logf): rounding p_x, p_y
  // and their ratio to float costs about 2e-7 absolute per log term, weighted by q_x, far below
  // the 6 printed decimals; the sums stay in double.
  constexpr size_t kBlock = 1024;
  double px[kBlock];
  float lr[kBlock];
  double spx = 0, spy = 0, t = 0;
  for (size_t b = 0; b < n; b += kBlock) {
    const size_t m = n - b < kBlock ? n - b : kBlock;
    const T* xb = x + b;
    const T* yb = y + b;
#pragma omp simd reduction(+ : spx, spy)
    for (size_t i = 0; i < m; ++i) {
      double p = (static_cast<double>(xb[i]) - ox) * sx;
      double q = (static_cast<double>(yb[i]) - oy) * sy;
      p = p > eps32 ? p : eps32;
      q = q > eps32 ? q : eps32;
      spx += p;
      spy += q;
      px[i] = p;
      lr[i] = static_cast<float>(p) / static_cast<float>(q);
    }
#pragma omp simd
    for (size_t i = 0; i < m; ++i) lr[i] = std::log(lr[i]);
#pragma omp simd reduction(+ : t)
    for (size_t i = 0; i < m; ++i) t += px[i] * static_cast<double>(lr[i]);
  }
  s->sum_px += spx;
  s->sum_py += spy;
  s->t += t;
}
}  // namespace

void kldChunk(const double* x, const double* y, size_t n, double min_x, double range_x,
              double min_y, double range_y, KldSums* s) {
  kldChunkT(x, y, n, min_x, range_x, min_y, range_y, s);
}
void kldChunk(const float* x, const float* y, size_t n, double min_x, double range_x, double min_y,
              double range_y, KldSums* s) {
  kldChunkT(x, y, n, min_x, range_x, min_y, range_y, s);
}

}  // namespace asc::compare::detail
