// kernel_softmax.h: SoftMax, the high-level API: for each of srcM rows of srcK elements in the
// unified buffer, max = the row's max, sum = the sum of exp(x - max), y = exp(x - max) / sum,
// computed in float. sumTensor and maxTensor hold one 32-byte block per row, the row's value
// repeated across it (CANN's layout); with half data they may be float (CANN's mixed form). The
// shape is softmaxShapeInfo's, or the tiling's (SoftMaxTilingFunc) when that is left empty;
// oriSrcK < srcK takes the first oriSrcK elements of each row and writes 0 to the rest of the row
// (what CANN leaves there is UNCONFIRMED). The CPU layer needs no temporary buffer: the
// sharedTmpBuffer forms accept one. NZ data (isDataFormatNZ) is refused at compile time.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "asc_cpu/kernel_tensor.h"
#include "tiling/softmax_tiling.h"

namespace AscendC {

struct SoftMaxShapeInfo {
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
};

namespace detail_cpu {
template <typename T, typename U>
void softMaxRows(const LocalTensor<T>& dst, const LocalTensor<U>* sum, const LocalTensor<U>* max,
                 const LocalTensor<T>& src, const SoftMaxTiling& tiling,
                 const SoftMaxShapeInfo& info) {
  const char* call = "SoftMax";
  const bool given = info.srcM != 0 || info.srcK != 0;
  const uint64_t m = given ? info.srcM : tiling.srcM, k = given ? info.srcK : tiling.srcK;
  const uint64_t ok = given && info.oriSrcK != 0 ? info.oriSrcK : k;
  if (m == 0 || k == 0)
    asc::ascendc::detail::failf(call, "the shape is ", m, " x ", k,
                                " (set softmaxShapeInfo, or the tiling with SoftMaxTilingFunc)");
  if (ok > k) asc::ascendc::detail::failf(call, "oriSrcK ", ok, " exceeds srcK ", k);
  const T* s = src.ascData(call, "src", m * k);
  T* d = dst.ascData(call, "dst", m * k);
  const uint64_t block = 32 / sizeof(U);
  U* sp = sum ? sum->ascData(call, "sumTensor", m * block) : nullptr;
  U* mp = max ? max->ascData(call, "maxTensor", m * block) : nullptr;
  std::vector<float> row(ok);
  for (uint64_t r = 0; r < m; ++r) {
    float hi = -INFINITY;
    for (uint64_t j = 0; j < ok; ++j) {
      row[j] = float(s[r * k + j]);
      hi = std::max(hi, row[j]);
    }
    float total = 0;
    for (uint64_t j = 0; j < ok; ++j) {
      row[j] = std::exp(row[j] - hi);
      total += row[j];
    }
    for (uint64_t j = 0; j < ok; ++j) d[r * k + j] = T(row[j] / total);
    for (uint64_t j = ok; j < k; ++j) d[r * k + j] = T(0.0f);
    for (uint64_t j = 0; j < block; ++j) {
      if (sp) sp[r * block + j] = U(total);
      if (mp) mp[r * block + j] = U(hi);
    }
  }
}
}  // namespace detail_cpu

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
             const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftMax: NZ data (isDataFormatNZ) is not provided on the CPU");
  detail_cpu::softMaxRows<T, T>(dstTensor, &sumTensor, &maxTensor, srcTensor, tiling,
                                softmaxShapeInfo);
}
/// half data with float sum and max.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false>
void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
             const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftMax: NZ data (isDataFormatNZ) is not provided on the CPU");
  detail_cpu::softMaxRows<half, float>(dstTensor, &sumTensor, &maxTensor, srcTensor, tiling,
                                       softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail_cpu::softMaxRows<T, T>(dstTensor, nullptr, nullptr, srcTensor, tiling, softmaxShapeInfo);
}
// The sharedTmpBuffer forms: the buffer is checked to be a tensor, and not needed.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, typename U>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<U>& sumTensor,
             const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  sharedTmpBuffer.ascData("SoftMax", "sharedTmpBuffer", 0);
  SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ>(dstTensor, sumTensor, maxTensor,
                                                          srcTensor, tiling, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  sharedTmpBuffer.ascData("SoftMax", "sharedTmpBuffer", 0);
  SoftMax<T, isReuseSource, isBasicBlock>(dstTensor, srcTensor, tiling, softmaxShapeInfo);
}

}  // namespace AscendC
