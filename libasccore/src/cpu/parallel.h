// parallel.h: the runtime's own parallel loops (OpenMP, the pool oneDNN also uses).
#pragma once

#include <cstdint>
#include <utility>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace asc::cpu {

/// This thread's index in the enclosing parallel region and the region's thread count ({0, 1}
/// outside one).
inline std::pair<int64_t, int64_t> threadSlot() {
#ifdef _OPENMP
  return {omp_get_thread_num(), omp_get_num_threads()};
#else
  return {0, 1};
#endif
}

/// Calls f(begin, end) on contiguous chunks of [0, n) in parallel; serial below `grain`.
template <typename F>
void parallelFor(int64_t n, int64_t grain, F&& f) {
  if (n <= grain) {
    if (n > 0) f(int64_t(0), n);
    return;
  }
#pragma omp parallel
  {
#ifdef _OPENMP
    const int64_t nt = omp_get_num_threads();
    const int64_t t = omp_get_thread_num();
#else
    const int64_t nt = 1, t = 0;
#endif
    const int64_t chunk = (n + nt - 1) / nt;
    const int64_t b = t * chunk;
    const int64_t e = b + chunk < n ? b + chunk : n;
    if (b < e) f(b, e);
  }
}

}  // namespace asc::cpu
