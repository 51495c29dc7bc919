// avx2_product.h: the register-blocked fp32 product the runtime's own AVX2 kernels share
// (conv/winograd_avx2.cpp, conv/gemm_conv_avx2.cpp, matmul/gemm_avx2.cpp): up to 6 rows x 16
// columns of C = A . B, 12 ymm accumulators, one broadcast of A and two loads of B per step of
// the sum. A is either stored in blocks of 8 along the sum (product) or row-major (productRows).
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstdint>

namespace asc::ops::avx2 {

/// m [NR rows][16] (+)= v [NR][K] . u [K][16], K = 8 x kb_n. v is stored in blocks of 8 along K:
/// [kb_n][.. vs ..][8], row i at i * 8 of each block; u is [K][16] row-major; m's two halves of
/// 8 columns are ms floats apart, row i at i * 8 of each. Accumulate adds to m instead of
/// overwriting it.
template <int NR, bool Accumulate>
__attribute__((target("avx2,fma"))) inline void product(const float* v, int64_t vs, int64_t kb_n,
                                                        const float* u, float* m, int64_t ms) {
  __m256 a0[NR], a1[NR];
#pragma GCC unroll 6
  for (int i = 0; i < NR; ++i) {
    a0[i] = Accumulate ? _mm256_loadu_ps(m + i * 8) : _mm256_setzero_ps();
    a1[i] = Accumulate ? _mm256_loadu_ps(m + ms + i * 8) : _mm256_setzero_ps();
  }
  for (int64_t kb = 0; kb < kb_n; ++kb) {
    const float* vp = v + kb * vs;
    const float* up = u + kb * 128;
#pragma GCC unroll 8
    for (int ci = 0; ci < 8; ++ci) {
      const __m256 u0 = _mm256_loadu_ps(up + ci * 16), u1 = _mm256_loadu_ps(up + ci * 16 + 8);
#pragma GCC unroll 6
      for (int i = 0; i < NR; ++i) {
        const __m256 b = _mm256_broadcast_ss(vp + i * 8 + ci);
        a0[i] = _mm256_fmadd_ps(b, u0, a0[i]);
        a1[i] = _mm256_fmadd_ps(b, u1, a1[i]);
      }
    }
  }
#pragma GCC unroll 6
  for (int i = 0; i < NR; ++i) {
    _mm256_storeu_ps(m + i * 8, a0[i]);
    _mm256_storeu_ps(m + ms + i * 8, a1[i]);
  }
}

using ProductFn = void (*)(const float*, int64_t, int64_t, const float*, float*, int64_t);

/// Prefetches (into L1) the part-th of `parts` equal pieces of the `bytes` at p: a caller that
/// runs the product over `parts` row groups of one slice of B fetches the next slice meanwhile,
/// one piece per group. B's weights stream from memory once per run (the kernels' other operand
/// stays in L2), and without this each slice's first row group waits for them.
inline void prefetchPart(const void* p, int64_t bytes, int64_t part, int64_t parts) {
  const int64_t lines = (bytes + 63) / 64, per = (lines + parts - 1) / parts;
  const int64_t l0 = std::min(lines, part * per), l1 = std::min(lines, l0 + per);
  for (int64_t l = l0; l < l1; ++l) _mm_prefetch(static_cast<const char*>(p) + l * 64, _MM_HINT_T0);
}

/// product<nr, accumulate> for nr in 1..6 (a switch: GCC 12 left a constexpr variable template
/// of these pointers zero where it was only read through a conditional expression).
inline ProductFn productFor(int64_t nr, bool accumulate) {
  switch (nr) {
    case 1:
      return accumulate ? product<1, true> : product<1, false>;
    case 2:
      return accumulate ? product<2, true> : product<2, false>;
    case 3:
      return accumulate ? product<3, true> : product<3, false>;
    case 4:
      return accumulate ? product<4, true> : product<4, false>;
    case 5:
      return accumulate ? product<5, true> : product<5, false>;
    default:
      return accumulate ? product<6, true> : product<6, false>;
  }
}

/// c [NR rows][16] (+)= a [NR][kn] . b [kn][16]: a row-major with rows lda floats apart, b
/// [kn][16] row-major, c's rows ldc floats apart (16 contiguous columns each).
template <int NR, bool Accumulate>
__attribute__((target("avx2,fma"))) inline void productRows(const float* a, int64_t lda, int64_t kn,
                                                            const float* b, float* c, int64_t ldc) {
  __m256 a0[NR], a1[NR];
#pragma GCC unroll 6
  for (int i = 0; i < NR; ++i) {
    a0[i] = Accumulate ? _mm256_loadu_ps(c + i * ldc) : _mm256_setzero_ps();
    a1[i] = Accumulate ? _mm256_loadu_ps(c + i * ldc + 8) : _mm256_setzero_ps();
  }
#pragma GCC unroll 4
  for (int64_t k = 0; k < kn; ++k) {
    const __m256 u0 = _mm256_loadu_ps(b + k * 16), u1 = _mm256_loadu_ps(b + k * 16 + 8);
#pragma GCC unroll 6
    for (int i = 0; i < NR; ++i) {
      const __m256 v = _mm256_broadcast_ss(a + i * lda + k);
      a0[i] = _mm256_fmadd_ps(v, u0, a0[i]);
      a1[i] = _mm256_fmadd_ps(v, u1, a1[i]);
    }
  }
#pragma GCC unroll 6
  for (int i = 0; i < NR; ++i) {
    _mm256_storeu_ps(c + i * ldc, a0[i]);
    _mm256_storeu_ps(c + i * ldc + 8, a1[i]);
  }
}

/// productRows<nr, accumulate> for nr in 1..6.
inline ProductFn productRowsFor(int64_t nr, bool accumulate) {
  switch (nr) {
    case 1:
      return accumulate ? productRows<1, true> : productRows<1, false>;
    case 2:
      return accumulate ? productRows<2, true> : productRows<2, false>;
    case 3:
      return accumulate ? productRows<3, true> : productRows<3, false>;
    case 4:
      return accumulate ? productRows<4, true> : productRows<4, false>;
    case 5:
      return accumulate ? productRows<5, true> : productRows<5, false>;
    default:
      return accumulate ? productRows<6, true> : productRows<6, false>;
  }
}

}  // namespace asc::ops::avx2
