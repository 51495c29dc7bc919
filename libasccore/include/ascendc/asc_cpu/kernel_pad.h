// kernel_pad.h: Pad and UnPad, the high-level APIs for rows that are not whole 32-byte units: a
// [srcHeight, srcWidth] tensor in the unified buffer whose rows hold srcOriWidth elements of
// data (tiling/pad_tiling.h). Pad writes padValue around each row's data; UnPad drops leftPad
// and rightPad elements from each row and packs the rest. dst may be src. The CPU layer needs
// no temporary buffer; the sharedTmpBuffer forms accept one.
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

}  // namespace AscendC
