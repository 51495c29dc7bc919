// avx2_math.h: vectorized functions the runtime's own AVX2 kernels share (rnn/rnn_own.cpp,
// softmax/softmax_kernel.cpp, matmul/gemm_avx2.cpp).
#pragma once

#include <immintrin.h>

namespace asc::ops::avx2 {

/// e^x of 8 floats: range reduction to |r| <= ln 2 / 2 (x = n ln 2 + r, ln 2 in two parts so
/// that n ln 2 is exact enough) and Cephes' degree-6 polynomial for e^r, about 1 ulp; x clamped
/// to [-87.3, 88.3] (no infinities, no denormals).
__attribute__((target("avx2,fma"))) inline __m256 exp8(__m256 x) {
  x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-87.3f)), _mm256_set1_ps(88.3f));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  // r = x - n ln 2, with ln 2 in two parts so that n ln 2 is exact enough
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.f)));
  const __m256i two_n =
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(two_n));
}

// Abramowitz and Stegun's 7.1.26: erfc(z) ~ t (a1 + t (a2 + t (a3 + t (a4 + t a5)))) e^(-z^2),
// t = 1 / (1 + p z), z >= 0, absolute error at most 1.5e-7 (the form oneDNN's gelu_erf takes).
namespace gelu_detail {
constexpr float kP = 0.3275911f, kA1 = 0.254829592f, kA2 = -0.284496736f, kA3 = 1.421413741f,
                kA4 = -1.453152027f, kA5 = 1.061405429f, kRsqrt2 = 0.70710678118654752f;
}  // namespace gelu_detail

/// GELU, the erf form, of 8 floats: 0.5 x (1 + erf(x / sqrt 2)). 1 + erf is taken as erfc(|z|)
/// for x < 0 (so a small result keeps its relative accuracy) and 2 - erfc(z) otherwise.
__attribute__((target("avx2,fma"))) inline __m256 geluErf8(__m256 x) {
  using namespace gelu_detail;
  const __m256 sign = _mm256_set1_ps(-0.f);
  const __m256 z = _mm256_mul_ps(_mm256_andnot_ps(sign, x), _mm256_set1_ps(kRsqrt2));
  const __m256 one = _mm256_set1_ps(1.f);
  const __m256 t = _mm256_div_ps(one, _mm256_fmadd_ps(_mm256_set1_ps(kP), z, one));
  __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(kA5), t, _mm256_set1_ps(kA4));
  p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(kA3));
  p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(kA2));
  p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(kA1));
  p = _mm256_mul_ps(p, t);
  const __m256 q = _mm256_mul_ps(p, exp8(_mm256_sub_ps(_mm256_setzero_ps(), _mm256_mul_ps(z, z))));
  const __m256 neg = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ);
  const __m256 onePlusErf = _mm256_blendv_ps(_mm256_sub_ps(_mm256_set1_ps(2.f), q), q, neg);
  return _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), x), onePlusErf);
}

/// geluErf8 of one float, bit for bit (a row's last columns).
__attribute__((target("avx2,fma"))) inline float geluErf1(float x) {
  return _mm256_cvtss_f32(geluErf8(_mm256_set1_ps(x)));
}

}  // namespace asc::ops::avx2
