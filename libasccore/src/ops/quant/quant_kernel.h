// quant_kernel.h: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger and
// QLinearMatMul (see quant_kernel.cpp), and the element rules they share with constant folding.
#pragma once

#include <algorithm>
#include <cmath>

#include "asc/ops/kernel.h"

namespace asc::ops {

Result<std::unique_ptr<Kernel>> createQuantKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createQuantMatMulKernel(const KernelInit& k);

/// round(x / scale) + zero_point, halves to even, in fp32 as ONNX's reference does, saturated
/// to [lo, hi].
inline int64_t quantizeValue(float x, float scale, int64_t zp, int64_t lo, int64_t hi) {
  const float q = std::nearbyint(x / scale) + static_cast<float>(zp);
  return static_cast<int64_t>(std::clamp(q, static_cast<float>(lo), static_cast<float>(hi)));
}

/// (x - zero_point) * scale.
inline float dequantizeValue(int64_t x, float scale, int64_t zp) {
  return static_cast<float>(x - zp) * scale;
}

/// DynamicQuantizeLinear's uint8 parameters from the data's range (widened to include 0).
inline void dynamicParams(float lo, float hi, float* scale, int64_t* zp) {
  lo = std::min(lo, 0.f);
  hi = std::max(hi, 0.f);
  *scale = (hi - lo) / 255.f;
  *zp = *scale == 0.f
            ? 0
            : static_cast<int64_t>(std::clamp(std::nearbyint(0.f - lo / *scale), 0.f, 255.f));
}

}  // namespace asc::ops
