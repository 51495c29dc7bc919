// shape_kernel.h: data-movement kernels (see shape_kernel.cpp).
#pragma once

#include <functional>

#include "asc/ops/kernel.h"

namespace asc::ops {
/// A kernel that runs `f`, reporting `name` as its implementation.
std::unique_ptr<Kernel> fnKernel(std::function<void()> f, std::string name);
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
/// Pad's modes: constant, reflect (mirrored without repeating the edge), edge (the edge value
/// repeated), wrap (Pad-19: around, as if each dim were a ring).
enum class PadMode { Constant, Reflect, Edge, Wrap };
/// False for a name that is none of them.
bool padModeOf(const std::string& name, PadMode* mode);
/// The source index along a dim of n elements for output position s (already shifted by the
/// begin pad): s itself inside [0, n), else by the mode; -1 for constant (the fill value).
inline int64_t padSource(int64_t s, int64_t n, PadMode m) {
  if (s >= 0 && s < n) return s;
  if (m == PadMode::Constant || n == 0) return -1;
  if (m == PadMode::Edge) return s < 0 ? 0 : n - 1;
  if (m == PadMode::Wrap) return ((s % n) + n) % n;
  const int64_t period = n == 1 ? 1 : 2 * (n - 1);
  s = ((s % period) + period) % period;
  return s >= n ? period - s : s;
}
Result<std::unique_ptr<Kernel>> createDepthToSpaceKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createSpaceToDepthKernel(const KernelInit& k);
/// ShuffleChannel: plain or channels-last (see shuffleChannelLayout).
Result<std::unique_ptr<Kernel>> createShuffleChannelKernel(const KernelInit& k);
/// Channels-last blocked inputs stay so (each pixel's channels are permuted); nChw8c and plain
/// ones go plain.
Layout shuffleChannelLayout(const ir::Node& n, const std::vector<Layout>& in);
Result<std::unique_ptr<Kernel>> createCastKernel(const KernelInit& k);
/// Elements [b, e) of `in` converted to `to` into `out` (laid out as `to`), by Cast's rules
/// (cast.cpp); `saturate` is Cast-19's, for the float8 types.
void castElements(const ir::Tensor& in, ir::DType to, bool saturate, void* out, int64_t b,
                  int64_t e);
/// Shape, Constant, ConstantOfShape: outputs known at compile time (normally folded away).
Result<std::unique_ptr<Kernel>> createConstKernel(const KernelInit& k);
/// Concat along channels of blocked tensors whose channel counts are multiples of the block.
Layout concatLayout(const ir::Node& n, const std::vector<Layout>& in);
/// Concat's output is its inputs one after another when every dim before the axis is 1: plain,
/// or nChw8c along channels (whole blocks, concatLayout); never channels-last, where each
/// pixel interleaves them.
bool concatJoins(const ir::Node& n, Layout out);
}  // namespace asc::ops
