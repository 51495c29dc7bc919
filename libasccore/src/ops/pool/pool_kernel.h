// pool_kernel.h: oneDNN pooling kernels (see pool_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createPoolKernel(const KernelInit& k);
/// MaxPool `pool` (its KernelInit: input 0 is the Concat's output, which it does not read), 2-D,
/// undilated, without Indices, computed from `parts`, the inputs of the channel Concat that
/// produced its input, all fp32 channels-last: each part's channels pooled where they lie into
/// their place in the output. nullptr when the tensors are not such (the caller keeps the Concat
/// and the usual kernel).
std::unique_ptr<Kernel> createConcatMaxPool(const KernelInit& pool,
                                            const std::vector<TensorRef>& parts);
/// Pooling keeps its input's layout.
Layout poolLayout(const ir::Node& n, const std::vector<Layout>& in);
}  // namespace asc::ops
