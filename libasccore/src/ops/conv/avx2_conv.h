// avx2_conv.h: what the runtime's own nChw8c convolutions (winograd_avx2.cpp, gemm_conv_avx2.cpp)
// ask of a node before their own conditions.
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {

/// A Conv with one output on a CPU whose Blocked layout is nChw8c and that has AVX2 and FMA; fp32
/// nChw8c 4-D input and output; constant plain fp32 weights [K, C, kH, kW] with C a multiple of
/// 8 and K of 16; ungrouped; strides and dilations for 2 dims and pads for 4; an optional fused
/// bias (plain fp32) and residual (fp32 nChw8c); a fused activation of none or Relu.
bool avx2BlockedConv(const KernelInit& k);

}  // namespace asc::ops
