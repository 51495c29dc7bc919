// kld_kernel.h: the second pass of KullbackLeiblerDivergence. It lives in its own file because
// that file is compiled with -ffast-math, so the log in its loop becomes glibc's vector log
// (libmvec); it is only called on finite data.
#pragma once

#include <cstddef>

namespace asc::compare::detail {

struct KldSums {
  double sum_px = 0, sum_py = 0, t = 0;  // sum p_x, sum p_y, sum p_x * ln(p_x / p_y)
};

/// p = (v - min) / range (v itself when range == 0), clamped to at least float32 epsilon.
/// Adds sum p_x, sum p_y and sum p_x ln(p_x / p_y) over n elements to `s`.
void kldChunk(const double* x, const double* y, size_t n, double min_x, double range_x,
              double min_y, double range_y, KldSums* s);
void kldChunk(const float* x, const float* y, size_t n, double min_x, double range_x, double min_y,
              double range_y, KldSums* s);

}  // namespace asc::compare::detail
