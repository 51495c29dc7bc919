// avx2_conv.h: what the runtime's own convolutions (winograd_avx2.cpp, winograd_avx512.cpp,
// gemm_conv_avx2.cpp) ask of a node before their own conditions, and the tiling their Winograd
// kernels share.
#pragma once

#include <cstdint>

#include "asc/ops/kernel.h"

namespace asc::ops {

/// The operands every own convolution takes: a Conv with one output; fp32 4-D input and output
/// in the Blocked layout; constant plain fp32 weights [K, C, kH, kW] matching them; ungrouped;
/// strides and dilations for 2 dims and pads for 4; an optional fused bias (plain fp32) and
/// residual (fp32, Blocked); a fused activation of none or Relu; not high_precision.
bool ownConvOperands(const KernelInit& k);

/// ownConvOperands on a CPU whose Blocked layout is nChw8c and that has AVX2 and FMA, with C a
/// multiple of 8 and K of 16.
bool avx2BlockedConv(const KernelInit& k);

/// A Winograd F(2x2, 3x3) convolution's geometry: 3x3 weights, stride 1, undilated, pads of 0
/// to 2 giving the node's output size, which has at least `min_outputs` positions.
bool winogradGeometry(const KernelInit& k, int64_t min_outputs);

/// An own convolution's sizes: batch, channels in and out, input and output extents, and the
/// top and left pads.
struct ConvExtents {
  int64_t n, c, k, h, w, oh, ow, pt, pl;
};
ConvExtents convExtents(const KernelInit& k);

/// What a Winograd kernel tiles: the extents and the 2x2 output tiles per image (th x tw).
struct WinogradTiles : ConvExtents {
  int64_t th, tw, tiles;
};
WinogradTiles winogradTiles(const KernelInit& k);

}  // namespace asc::ops
