// quant_kernel.h: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger and
// QLinearMatMul (see quant_kernel.cpp), and the element rules they share with constant folding.
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>

#include "asc/ops/kernel.h"
#include "asc/support/fp16.h"

namespace asc::ops {

Result<std::unique_ptr<Kernel>> createQuantKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createQuantMatMulKernel(const KernelInit& k);

/// round(x / scale) + zero_point, halves to even, in fp32 as ONNX's reference does, saturated
/// to [lo, hi].
inline int64_t quantizeValue(float x, float scale, int64_t zp, int64_t lo, int64_t hi) {
  const float q = std::nearbyint(x / scale) + static_cast<float>(zp);
  return static_cast<int64_t>(std::clamp(q, static_cast<float>(lo), static_cast<float>(hi)));
}

/// QuantizeLinear-23's `precision`, the float type x / scale is computed in: float16 (10) and
/// bfloat16 (16) round both operands and the quotient to it (float32's quotient rounded once
/// more is the correctly rounded 16-bit one) and return (quotient, 1); any other value (0,
/// float32) returns (x, scale) for the quantizers to divide in fp32.
inline std::pair<float, float> inPrecision(float x, float scale, int64_t precision) {
  auto round = [precision](float v) {
    return precision == 10 ? halfToFloat(floatToHalf(v)) : bf16ToFloat(floatToBf16(v));
  };
  if (precision != 10 && precision != 16) return {x, scale};
  return {round(round(x) / round(scale)), 1.f};
}

/// The saturation range of an integer quantized type: uint8, int8, uint16, int16,
/// uint4, int4 (Q-21, one element per byte), int32 (DequantizeLinear only).
inline void quantRange(ir::DType t, int64_t* lo, int64_t* hi) {
  switch (t) {
    case ir::DType::I8:
      *lo = -128, *hi = 127;
      return;
    case ir::DType::I16:
      *lo = -32768, *hi = 32767;
      return;
    case ir::DType::U16:
      *lo = 0, *hi = 65535;
      return;
    case ir::DType::I4:
      *lo = -8, *hi = 7;
      return;
    case ir::DType::U4:
      *lo = 0, *hi = 15;
      return;
    case ir::DType::I32:
      *lo = INT32_MIN, *hi = INT32_MAX;
      return;
    default:
      *lo = 0, *hi = 255;
      return;
  }
}

/// QuantizeLinear to a float8 type (opset 19): x / scale + zero_point rounded to the type,
/// nearest even, beyond its range clamped with `saturate` (else infinity or NaN).
inline uint8_t quantizeFloat8(float x, float scale, float zp, ir::DType t, bool saturate) {
  return floatToFloat8(x / scale + zp, ir::float8Kind(t), saturate);
}

/// (x - zero_point) * scale.
inline float dequantizeValue(int64_t x, float scale, int64_t zp) {
  return static_cast<float>(x - zp) * scale;
}

/// Which scale / zero-point element serves element i of x: 0 per tensor; the index along `axis`
/// per axis; with a block size (Q/DQ-21 blocked quantization: the parameters have x's shape
/// with ceil(x[axis] / block) along axis) the element whose axis index is i's divided by it.
struct QuantSlots {
  bool per_tensor = true;
  int64_t dim = 1, inner = 1, block = 0, blocks = 1;
  int64_t operator()(int64_t i) const {
    if (per_tensor) return 0;
    const int64_t a = (i / inner) % dim;
    if (block == 0) return a;
    const int64_t outer = i / (inner * dim);
    return (outer * blocks + a / block) * inner + i % inner;
  }
};
/// From the node's normalized `axis` and `block_size`, x's shape and the scale's element count.
inline QuantSlots quantSlots(const ir::Attrs& a, const ir::Shape& x, int64_t scale_numel) {
  QuantSlots s;
  const int64_t block = a.getInt("block_size", 0);
  if (scale_numel <= 1 && block == 0) return s;
  s.per_tensor = false;
  int64_t axis = a.getInt("axis", 1);
  if (axis < 0) axis += static_cast<int64_t>(x.size());
  s.dim = x[static_cast<size_t>(axis)];
  for (size_t d = static_cast<size_t>(axis) + 1; d < x.size(); ++d) s.inner *= x[d];
  s.block = block;
  s.blocks = block > 0 ? (s.dim + block - 1) / block : 1;
  return s;
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
