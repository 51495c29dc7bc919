// shape_kernel.h: data-movement kernels (see shape_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
/// Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout: a copy of the bytes.
Result<std::unique_ptr<Kernel>> createCopyKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createTransposeKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createConcatKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createSplitKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createSliceKernel(const KernelInit& k);
/// Channels-last blocked inputs are sliced in place of layout; others go plain.
Layout sliceLayout(const ir::Node& n, const std::vector<Layout>& in);
Result<std::unique_ptr<Kernel>> createGatherKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createExpandKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createTileKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createPadKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createDepthToSpaceKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createSpaceToDepthKernel(const KernelInit& k);
/// ShuffleChannel: plain or channels-last (see shuffleChannelLayout).
Result<std::unique_ptr<Kernel>> createShuffleChannelKernel(const KernelInit& k);
/// Channels-last blocked inputs stay so (each pixel's channels are permuted); nChw8c and plain
/// ones go plain.
Layout shuffleChannelLayout(const ir::Node& n, const std::vector<Layout>& in);
Result<std::unique_ptr<Kernel>> createCastKernel(const KernelInit& k);
/// Shape, Constant, ConstantOfShape: outputs known at compile time (normally folded away).
Result<std::unique_ptr<Kernel>> createConstKernel(const KernelInit& k);
/// Concat along channels of blocked tensors whose channel counts are multiples of the block.
Layout concatLayout(const ir::Node& n, const std::vector<Layout>& in);
/// Concat's output is its inputs one after another when every dim before the axis is 1: plain,
/// or nChw8c along channels (whole blocks, concatLayout); never channels-last, where each
/// pixel interleaves them.
bool concatJoins(const ir::Node& n, Layout out);
}  // namespace asc::ops
