// kernel_pad.h: Pad and UnPad, the high-level APIs for rows that are not whole 32-byte units: a
// [srcHeight, srcWidth] tensor in the unified buffer whose rows hold srcOriWidth elements of
// data (tiling/pad_tiling.h). Pad writes padValue around each row's data; UnPad drops leftPad
// and rightPad elements from each row and packs the rest. dst may be src. The CPU layer needs
// no temporary buffer; the sharedTmpBuffer forms accept one. BroadCast repeats a tensor along
// one axis (a scalar to a row, a row to rows, a column to columns).
#pragma once

#include <cstdint>
#include <vector>

#include "asc_cpu/kernel_tensor.h"
#include "tiling/pad_tiling.h"

namespace AscendC {

struct PadParams {
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
  int32_t padValue = 0;
};

struct UnPadParams {
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
};

template <typename T>
void Pad(const LocalTensor<T>& dst, const LocalTensor<T>& src, const PadParams& padParams,
         const PadTiling& tiling) {
  const char* call = "Pad";
  const uint64_t h = tiling.srcHeight, w = tiling.srcWidth, ow = tiling.srcOriWidth;
  const uint64_t left = padParams.leftPad, right = padParams.rightPad;
  if (ow > w || left + ow + right > w)
    asc::ascendc::detail::failf(call, "leftPad ", left, " + the row's ", ow,
                                " elements + rightPad ", right, " exceed the row width ", w,
                                " (PadTilingFunc's srcShape and oriSrcShape)");
  const T* s = src.ascData(call, "src", h * w);
  T* d = dst.ascData(call, "dst", h * w);
  const T value = T(padParams.padValue);
  std::vector<T> row(ow);
  for (uint64_t r = 0; r < h; ++r) {
    for (uint64_t j = 0; j < ow; ++j) row[j] = s[r * w + j];
    T* out = d + r * w;
    for (uint64_t j = 0; j < left; ++j) out[j] = value;
    for (uint64_t j = 0; j < ow; ++j) out[left + j] = row[j];
    for (uint64_t j = 0; j < right; ++j) out[left + ow + j] = value;
  }
}
template <typename T>
void Pad(const LocalTensor<T>& dst, const LocalTensor<T>& src, const PadParams& padParams,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const PadTiling& tiling) {
  sharedTmpBuffer.ascData("Pad", "sharedTmpBuffer", 0);
  Pad(dst, src, padParams, tiling);
}

template <typename T>
void UnPad(const LocalTensor<T>& dst, const LocalTensor<T>& src, const UnPadParams& unPadParams,
           const UnPadTiling& tiling) {
  const char* call = "UnPad";
  const uint64_t h = tiling.srcHeight, w = tiling.srcWidth;
  const uint64_t left = unPadParams.leftPad, right = unPadParams.rightPad;
  if (left + right >= w)
    asc::ascendc::detail::failf(call, "leftPad ", left, " + rightPad ", right,
                                " leave nothing of the row width ", w);
  const uint64_t ow = w - left - right;
  const T* s = src.ascData(call, "src", h * w);
  T* d = dst.ascData(call, "dst", h * ow);
  std::vector<T> out(h * ow);
  for (uint64_t r = 0; r < h; ++r)
    for (uint64_t j = 0; j < ow; ++j) out[r * ow + j] = s[r * w + left + j];
  for (uint64_t i = 0; i < out.size(); ++i) d[i] = out[i];
}
template <typename T>
void UnPad(const LocalTensor<T>& dst, const LocalTensor<T>& src, const UnPadParams& unPadParams,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const UnPadTiling& tiling) {
  sharedTmpBuffer.ascData("UnPad", "sharedTmpBuffer", 0);
  UnPad(dst, src, unPadParams, tiling);
}

/// BroadCast: src of srcShape (dim 1 or 2 dims) repeated along `axis` into dst of dstShape, whose
/// other dims are src's; srcShape[axis] is 1 (a scalar to a row, a row to rows, a column to
/// columns). The shared buffer is the NPU's scratch; the CPU layer needs none of it.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim]) {
  static_assert(dim == 1 || dim == 2, "BroadCast: dim is 1 or 2");
  static_assert(axis >= 0 && axis < dim, "BroadCast: axis is a dim of the shapes");
  const char* call = "BroadCast";
  uint64_t src_n = 1, dst_n = 1;
  for (int32_t i = 0; i < dim; ++i) {
    const bool ok = i == axis ? srcShape[i] == 1 : srcShape[i] == dstShape[i];
    if (!ok)
      asc::ascendc::detail::failf(call, "srcShape[", i, "] is ", srcShape[i], " and dstShape[", i,
                                  "] ", dstShape[i], ": along axis ", axis,
                                  " src has 1 element, elsewhere the same as dst");
    src_n *= srcShape[i];
    dst_n *= dstShape[i];
  }
  const T* s = src.ascData(call, "src", src_n);
  T* d = dst.ascData(call, "dst", dst_n);
  std::vector<T> in(s, s + src_n);  // dst may be src
  const uint64_t cols = dim == 2 ? dstShape[1] : dst_n;
  for (uint64_t i = 0; i < dst_n; ++i) {
    const uint64_t r = i / cols, c = i % cols;
    const uint64_t sr = dim == 2 && axis == 0 ? 0 : r, sc = axis == dim - 1 ? 0 : c;
    d[i] = in[dim == 2 ? sr * srcShape[1] + sc : sc];
  }
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer) {
  sharedTmpBuffer.ascData("BroadCast", "sharedTmpBuffer", 0);
  BroadCast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape);
}

}  // namespace AscendC
