// blocked.cpp: see blocked.h.
#include "cpu/blocked.h"

#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "cpu/features.h"
#include "cpu/parallel.h"

namespace asc::cpu {

using dnnl::memory;

bool fastConversions() {
  static const bool on = switchedOn("ASC_FAST_REORDER") && __builtin_cpu_supports("avx2");
  return on;
}

BlockedConversion blockedConversion(const memory::desc& from, const memory::desc& to) {
  if (from.data_type() != memory::data_type::f32 || from.dims().size() != 4 ||
      from.dims() != to.dims() || to.data_type() != memory::data_type::f32)
    return BlockedConversion::None;
  const memory::desc plain(from.dims(), memory::data_type::f32, memory::format_tag::nchw);
  const memory::desc blocked(from.dims(), memory::data_type::f32, memory::format_tag::nChw8c);
  if (from == blocked && to == plain) return BlockedConversion::ToPlain;
  if (from == plain && to == blocked) return BlockedConversion::ToBlocked;
  return BlockedConversion::None;
}

namespace {

// The 8x8 transpose of r[0..7] in place (rows become columns).
__attribute__((target("avx2"))) inline void transpose8(__m256 r[8]) {
  __m256 t[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  __m256 u[8];
  for (int i = 0; i < 8; i += 4) {
    u[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
    u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
    u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
    u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int i = 0; i < 4; ++i) {
    r[i] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x20);
    r[i + 4] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x31);
  }
}

// One block of 8 channels (`lanes` of them real) over pixels [p0, p1).
__attribute__((target("avx2"))) void blockToPlain(const float* x, float* y, int64_t hw, int lanes,
                                                  int64_t p0, int64_t p1) {
  int64_t p = p0;
  if (lanes == 8)
    for (; p + 8 <= p1; p += 8) {
      __m256 r[8];
      for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(x + (p + i) * 8);
      transpose8(r);
      for (int l = 0; l < 8; ++l) _mm256_storeu_ps(y + l * hw + p, r[l]);
    }
  for (; p < p1; ++p)
    for (int l = 0; l < lanes; ++l) y[l * hw + p] = x[p * 8 + l];
}

__attribute__((target("avx2"))) void plainToBlock(const float* x, float* y, int64_t hw, int lanes,
                                                  int64_t p0, int64_t p1) {
  int64_t p = p0;
  if (lanes == 8)
    for (; p + 8 <= p1; p += 8) {
      __m256 r[8];
      for (int l = 0; l < 8; ++l) r[l] = _mm256_loadu_ps(x + l * hw + p);
      transpose8(r);
      for (int i = 0; i < 8; ++i) _mm256_storeu_ps(y + (p + i) * 8, r[i]);
    }
  for (; p < p1; ++p)
    for (int l = 0; l < 8; ++l) y[p * 8 + l] = l < lanes ? x[l * hw + p] : 0.f;
}

// Every (image, block) split into runs of pixels, spread over the threads.
template <typename F>
void forBlocks(int64_t n, int64_t c, int64_t hw, F&& f) {
  const int64_t blocks = n * ((c + 7) / 8);
  const int64_t per = 512;  // pixels per piece (a multiple of 8)
  const int64_t pieces = (hw + per - 1) / per;
  const int64_t bytes = blocks * hw * 32;
  cpu::parallelFor(blocks * pieces, bytes < (int64_t(128) << 10) ? blocks * pieces : 1,
                   [&](int64_t b, int64_t e) {
                     for (int64_t i = b; i < e; ++i) {
                       const int64_t blk = i / pieces, p0 = (i % pieces) * per;
                       f(blk / ((c + 7) / 8), blk % ((c + 7) / 8), p0, std::min(hw, p0 + per));
                     }
                   });
}

}  // namespace

void blockedToPlain(const float* x, float* y, int64_t n, int64_t c, int64_t hw) {
  const int64_t cb_n = (c + 7) / 8;
  forBlocks(n, c, hw, [&](int64_t img, int64_t cb, int64_t p0, int64_t p1) {
    const int lanes = static_cast<int>(std::min<int64_t>(8, c - cb * 8));
    blockToPlain(x + (img * cb_n + cb) * hw * 8, y + (img * c + cb * 8) * hw, hw, lanes, p0, p1);
  });
}

void plainToBlocked(const float* x, float* y, int64_t n, int64_t c, int64_t hw) {
  const int64_t cb_n = (c + 7) / 8;
  forBlocks(n, c, hw, [&](int64_t img, int64_t cb, int64_t p0, int64_t p1) {
    const int lanes = static_cast<int>(std::min<int64_t>(8, c - cb * 8));
    plainToBlock(x + (img * c + cb * 8) * hw, y + (img * cb_n + cb) * hw * 8, hw, lanes, p0, p1);
  });
}

__attribute__((target("avx2"))) void transposeTile8(const float* src, int64_t src_ld, float* dst,
                                                    int64_t dst_ld) {
  __m256 r[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + i * src_ld);
  transpose8(r);
  for (int i = 0; i < 8; ++i) _mm256_storeu_ps(dst + i * dst_ld, r[i]);
}

}  // namespace asc::cpu
