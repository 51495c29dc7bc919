// convert.cpp: F16C/AVX2 conversions, parallel over large buffers.
#include "convert.h"

#include <immintrin.h>

#include "asc/support/fp16.h"

namespace asc::cpu {

void halfToFloat(const uint16_t* src, float* dst, size_t n) {
  const int64_t blocks = static_cast<int64_t>(n / 8);
#pragma omp parallel for if (n > (1 << 16)) schedule(static)
  for (int64_t b = 0; b < blocks; ++b) {
    __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + b * 8));
    _mm256_storeu_ps(dst + b * 8, _mm256_cvtph_ps(h));
  }
  for (size_t i = static_cast<size_t>(blocks) * 8; i < n; ++i) dst[i] = asc::halfToFloat(src[i]);
}

void floatToHalf(const float* src, uint16_t* dst, size_t n) {
  const int64_t blocks = static_cast<int64_t>(n / 8);
#pragma omp parallel for if (n > (1 << 16)) schedule(static)
  for (int64_t b = 0; b < blocks; ++b) {
    __m256 f = _mm256_loadu_ps(src + b * 8);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + b * 8),
                     _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  for (size_t i = static_cast<size_t>(blocks) * 8; i < n; ++i) dst[i] = asc::floatToHalf(src[i]);
}

void bf16ToFloat(const uint16_t* src, float* dst, size_t n) {
#pragma omp parallel for if (n > (1 << 16)) schedule(static)
  for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) dst[i] = asc::bf16ToFloat(src[i]);
}

void floatToBf16(const float* src, uint16_t* dst, size_t n) {
#pragma omp parallel for if (n > (1 << 16)) schedule(static)
  for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) dst[i] = asc::floatToBf16(src[i]);
}

void floatToHalfRounding(float* src, uint16_t* dst, size_t n) {
  const int64_t blocks = static_cast<int64_t>(n / 8);
#pragma omp parallel for if (n > (1 << 16)) schedule(static)
  for (int64_t b = 0; b < blocks; ++b) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + b * 8),
                                      _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + b * 8), h);
    _mm256_storeu_ps(src + b * 8, _mm256_cvtph_ps(h));
  }
  for (size_t i = static_cast<size_t>(blocks) * 8; i < n; ++i) {
    dst[i] = asc::floatToHalf(src[i]);
    src[i] = asc::halfToFloat(dst[i]);
  }
}

void floatToBf16Rounding(float* src, uint16_t* dst, size_t n) {
#pragma omp parallel for if (n > (1 << 16)) schedule(static)
  for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
    dst[i] = asc::floatToBf16(src[i]);
    src[i] = asc::bf16ToFloat(dst[i]);
  }
}

}  // namespace asc::cpu
