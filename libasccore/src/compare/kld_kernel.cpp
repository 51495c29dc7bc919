// kld_kernel.cpp: compiled with -ffast-math (see libasccore/CMakeLists.txt) so that std::log
// vectorizes through libmvec. Inputs are finite by contract (the caller skips this pass and
// reports NaN when either side has a NaN or an infinity).
#include "compare/kld_kernel.h"

#include <cfloat>
#include <cmath>

namespace asc::compare::detail {

void kldChunk(const double* x, const double* y, size_t n, double min_x, double range_x,
              double min_y, double range_y, KldSums* s) {
  // msprobe clamps with the float32 epsilon (ascend-facts.md 5.2).
  const double eps32 = FLT_EPSILON;
  const double sx = range_x != 0 ? 1.0 / range_x : 1.0, ox = range_x != 0 ? min_x : 0.0;
  const double sy = range_y != 0 ? 1.0 / range_y : 1.0, oy = range_y != 0 ? min_y : 0.0;
  double spx = 0, spy = 0, t = 0;
#pragma omp simd reduction(+ : spx, spy, t)
  for (size_t i = 0; i < n; ++i) {
    double px = (x[i] - ox) * sx;
    double py = (y[i] - oy) * sy;
    px = px > eps32 ? px : eps32;
    py = py > eps32 ? py : eps32;
    spx += px;
    spy += py;
    t += px * std::log(px / py);
  }
  s->sum_px += spx;
  s->sum_py += spy;
  s->t += t;
}

}  // namespace asc::compare::detail
