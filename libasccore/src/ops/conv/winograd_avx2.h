// winograd_avx2.h: the runtime's own Winograd F(2x2, 3x3) convolution for fp32 nChw8c tensors
// on AVX2 + FMA CPUs (oneDNN 2.6 has a Winograd kernel for AVX-512 only). See winograd_avx2.cpp.
#pragma once

#include <memory>

#include "asc/ops/kernel.h"

namespace asc::ops {

/// Whether the Winograd kernel serves this Conv: 2-D 3x3, stride 1, undilated, ungrouped, pads
/// of 0 to 2, fp32 nChw8c input and output (an AVX2 CPU's Blocked layout) with input channels a
/// multiple of 8 and output channels a multiple of 16, constant weights, a fused activation of
/// none or Relu, a fused residual only in the output's layout, on a CPU with AVX2 and FMA, and
/// an output large enough for the transforms to pay (see the .cpp).
bool winogradAvx2Serves(const KernelInit& k);

/// The kernel, for a node winogradAvx2Serves accepted.
std::unique_ptr<Kernel> createWinogradAvx2(const KernelInit& k);

}  // namespace asc::ops
