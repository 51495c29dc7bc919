// winograd_avx512.h: the runtime's own Winograd F(2x2, 3x3) convolution for fp32 channels-last
// tensors on AVX-512 CPUs, its weights transformed on every run from the plain ones. See
// winograd_avx512.cpp.
#pragma once

#include <memory>

#include "asc/ops/kernel.h"

namespace asc::ops {

/// Whether the kernel serves this Conv: 2-D 3x3, stride 1, undilated, ungrouped, pads of 0 to 2,
/// fp32 NHWC input and output (an AVX-512 CPU's Blocked layout) with input channels a multiple
/// of 16 and output channels a multiple of 32, constant plain weights, a fused activation of
/// none or Relu, a fused residual only in the output's layout, and an output of at least 28x28
/// positions.
bool winogradAvx512Serves(const KernelInit& k);

/// The kernel, for a node winogradAvx512Serves accepted.
Result<std::unique_ptr<Kernel>> createWinogradAvx512(const KernelInit& k);

}  // namespace asc::ops
