// kernel_transpose.h: moving data inside the unified buffer: Copy (the masked, repeated vector
// copy) and Transpose (one 16x16 block of 2-byte values, or the extended NCHW <-> NHWC and
// 16x16-block forms), as the A2/A3 chips run them.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "asc_cpu/kernel_vec_repeat.h"

namespace AscendC {

/// Copy's strides in 32-byte blocks: between the blocks of a repeat, and between repeats.
struct CopyRepeatParams {
  CopyRepeatParams() {}
  CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                   uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        dstRepeatSize(dstRepeatSizeIn),
        srcRepeatSize(srcRepeatSizeIn) {}
  uint16_t dstStride = 0;
  uint16_t srcStride = 0;
  uint16_t dstRepeatSize = 8;
  uint16_t srcRepeatSize = 8;
};

namespace detail_cpu {
template <typename T>
void copyRepeat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Mask& m,
                uint64_t repeat, const CopyRepeatParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Copy: T is a 2- or 4-byte type");
  T* d = dst.ascData("Copy", "dst", extent<T>(m, repeat, p.dstStride, p.dstRepeatSize));
  const T* s = src.ascData("Copy", "src", extent<T>(m, repeat, p.srcStride, p.srcRepeatSize));
  for (uint64_t r = 0; r < repeat; ++r)
    for (uint64_t e = 0; e < 256 / sizeof(T); ++e)
      if (m.on(r, e))
        d[at<T>(r, e, p.dstStride, p.dstRepeatSize)] = s[at<T>(r, e, p.srcStride, p.srcRepeatSize)];
}
}  // namespace detail_cpu

/// Copies the masked elements of `repeatTime` repeats. With isSetMask false the mask register
/// selects (SetVectorMask; kernel_vec_repeat.h).
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,
          const uint8_t repeatTime, const CopyRepeatParams& repeatParams) {
  uint64_t repeat = repeatTime;
  const detail_cpu::Mask m = detail_cpu::takeMask<T, isSetMask>("Copy", mask, &repeat);
  detail_cpu::copyRepeat(dst, src, m, repeat, repeatParams);
}
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
          const uint8_t repeatTime, const CopyRepeatParams& repeatParams) {
  uint64_t repeat = repeatTime;
  const detail_cpu::Mask m = detail_cpu::takeMask<T, isSetMask>("Copy", mask, &repeat);
  detail_cpu::copyRepeat(dst, src, m, repeat, repeatParams);
}

/// dst = the transpose of one 16x16 block of 2-byte values (dst may be src).
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
  static_assert(sizeof(T) == 2, "Transpose: the 16x16 form takes 2-byte values");
  const T* s = src.ascData("Transpose", "src", 256);
  std::vector<T> block(s, s + 256);
  T* d = dst.ascData("Transpose", "dst", 256);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) d[j * 16 + i] = block[i * 16 + j];
}

enum class TransposeType : uint8_t {
  TRANSPOSE_TYPE_NONE = 0,
  TRANSPOSE_NZ2ND_0213,
  TRANSPOSE_NZ2NZ_0213,
  TRANSPOSE_NZ2NZ_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITHOUT_N,
  TRANSPOSE_NZ2NZ_012_WITHOUT_N,
  TRANSPOSE_ND2ND_ONLY,
  TRANSPOSE_ND_UB_GM,
  TRANSPOSE_GRAD_ND_UB_GM,
  TRANSPOSE_ND2ND_B16,
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW,
};

struct TransposeParamsExt {
  constexpr TransposeParamsExt() = default;
  constexpr TransposeParamsExt(uint16_t nSizeIn, uint16_t cSizeIn, uint16_t hSizeIn,
                               uint16_t wSizeIn, TransposeType transposeTypeIn)
      : nSize(nSizeIn),
        cSize(cSizeIn),
        hSize(hSizeIn),
        wSize(wSizeIn),
        transposeType(transposeTypeIn) {}
  uint16_t nSize = 0, cSize = 0, hSize = 0, wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

/// The extended form: TRANSPOSE_ND2ND_B16 transposes n x c blocks of 16x16 2-byte values;
/// TRANSPOSE_NCHW2NHWC / NHWC2NCHW move the channels last / first (c <= 4095, h * w <= 4095,
/// h * w * sizeof(T) a multiple of 32; dst and src apart). Other types are refused.
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& p) {
  (void)sharedTmpBuffer;
  const uint64_t n = p.nSize ? p.nSize : 1, c = p.cSize, h = p.hSize, w = p.wSize;
  switch (p.transposeType) {
    case TransposeType::TRANSPOSE_ND2ND_B16: {
      if (sizeof(T) != 2 || h != 16 || w != 16)
        asc::ascendc::detail::failf("Transpose",
                                    "TRANSPOSE_ND2ND_B16 takes 2-byte values with "
                                    "hSize = wSize = 16, not ",
                                    sizeof(T), "-byte ", h, "x", w);
      const uint64_t blocks = n * (c ? c : 1);
      const T* s = src.ascData("Transpose", "src", blocks * 256);
      T* d = dst.ascData("Transpose", "dst", blocks * 256);
      std::vector<T> tmp(s, s + blocks * 256);
      for (uint64_t b = 0; b < blocks; ++b)
        for (int i = 0; i < 16; ++i)
          for (int j = 0; j < 16; ++j) d[b * 256 + j * 16 + i] = tmp[b * 256 + i * 16 + j];
      return;
    }
    case TransposeType::TRANSPOSE_NCHW2NHWC:
    case TransposeType::TRANSPOSE_NHWC2NCHW: {
      if (c == 0 || c > 4095 || h * w == 0 || h * w > 4095 || (h * w * sizeof(T)) % 32 != 0)
        asc::ascendc::detail::failf("Transpose", "c = ", c, ", h * w = ", h * w,
                                    ": give c in 1..4095 and h * w in 1..4095 with h * w * ",
                                    sizeof(T), " bytes a multiple of 32");
      const uint64_t hw = h * w, count = n * c * hw;
      const T* s = src.ascData("Transpose", "src", count);
      T* d = dst.ascData("Transpose", "dst", count);
      const bool to_nhwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
      for (uint64_t b = 0; b < n; ++b)
        for (uint64_t ch = 0; ch < c; ++ch)
          for (uint64_t i = 0; i < hw; ++i) {
            const uint64_t nchw = (b * c + ch) * hw + i, nhwc = (b * hw + i) * c + ch;
            if (to_nhwc)
              d[nhwc] = s[nchw];
            else
              d[nchw] = s[nhwc];
          }
      return;
    }
    default:
      asc::ascendc::detail::failf("Transpose", "transposeType ", int(p.transposeType),
                                  " is not supported by the CPU layer (ND2ND_B16, NCHW2NHWC and "
                                  "NHWC2NCHW are)");
  }
}

struct TransDataTo5HDParams {
  constexpr TransDataTo5HDParams() = default;
  constexpr TransDataTo5HDParams(bool dstHighHalfIn, bool srcHighHalfIn, uint8_t repeatTimesIn,
                                 uint16_t dstRepStrideIn, uint16_t srcRepStrideIn)
      : dstHighHalf(dstHighHalfIn),
        srcHighHalf(srcHighHalfIn),
        repeatTimes(repeatTimesIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;  // 32-byte blocks added to every address per repeat
  uint16_t srcRepStride = 0;
};

constexpr int NCHW_CONV_ADDR_LIST_SIZE = 16;

/// Each repeat reads one 32-byte block at each of the 16 source tensors and writes one at each
/// of the 16 destination tensors; every address moves by its RepStride blocks per repeat. With
/// src block j and dst block i:
/// - 2-byte values (16 per block): element i of source block j becomes element j of destination
///   block i (a 16x16 transpose across the two lists);
/// - 4-byte values (8 per block): element i of the 16 source blocks, in order, fills destination
///   blocks 2i and 2i+1 (sources 0-7, then 8-15);
/// - 1-byte values (32 per block): element i of the 16 source blocks (of their high half when
///   srcHighHalf) fills half of destination block i (its high half when dstHighHalf); the other
///   half is left as it was.
/// These follow CANN's description of the instruction (asc-devkit's TransDataTo5HD pages); the
/// 4- and 1-byte lane orders are UNCONFIRMED against the hardware. The forms taking physical
/// addresses are not provided.
template <typename T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& p) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "TransDataTo5HD takes 1-, 2- or 4-byte values");
  constexpr uint64_t per_block = 32 / sizeof(T);
  const uint64_t repeats = p.repeatTimes;
  if (repeats == 0) return;
  const uint64_t src_span = (repeats - 1) * p.srcRepStride * per_block + per_block;
  const uint64_t dst_span = (repeats - 1) * p.dstRepStride * per_block + per_block;
  const T* src[16];
  T* dst[16];
  for (int i = 0; i < 16; ++i) {
    src[i] = srcList[i].ascData("TransDataTo5HD", "srcList", src_span);
    dst[i] = dstList[i].ascData("TransDataTo5HD", "dstList", dst_span);
  }
  T block[16][32];  // the repeat's 16 source blocks, read before anything is written
  for (uint64_t r = 0; r < repeats; ++r) {
    const uint64_t s0 = r * p.srcRepStride * per_block, d0 = r * p.dstRepStride * per_block;
    for (int j = 0; j < 16; ++j)
      for (uint64_t e = 0; e < per_block; ++e) block[j][e] = src[j][s0 + e];
    if constexpr (sizeof(T) == 2) {
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) dst[i][d0 + j] = block[j][i];
    } else if constexpr (sizeof(T) == 4) {
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 16; ++j) dst[2 * i + j / 8][d0 + j % 8] = block[j][i];
    } else {
      const int from = p.srcHighHalf ? 16 : 0, to = p.dstHighHalf ? 16 : 0;
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) dst[i][d0 + to + j] = block[j][from + i];
    }
  }
}

}  // namespace AscendC
