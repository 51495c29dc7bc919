// gemm_conv_avx2.h: the runtime's own convolution as a matrix product for fp32 nChw8c tensors
// with small outputs on AVX2 + FMA CPUs. See gemm_conv_avx2.cpp.
#pragma once

#include <memory>

#include "asc/ops/kernel.h"

namespace asc::ops {

/// Whether the kernel serves this Conv: 2-D, ungrouped, fp32 nChw8c input and output (an AVX2 CPU's
/// Blocked layout), input channels a multiple of 8 and output channels of 16, constant weights, a
/// fused activation of none or Relu, a fused residual only in the output's layout, on a CPU with
/// AVX2 and FMA, and an output of at most 7x7 positions.
bool gemmConvAvx2Serves(const KernelInit& k);

/// The kernel, for a node gemmConvAvx2Serves accepted.
Result<std::unique_ptr<Kernel>> createGemmConvAvx2(const KernelInit& k);

}  // namespace asc::ops
