// norm_kernel.h: normalization kernels (see norm_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createNormKernel(const KernelInit& k);
/// BatchNormalization and LRN keep their input's layout; the others work on plain tensors.
Layout normLayout(const ir::Node& n, const std::vector<Layout>& in);
/// BatchNormalization `bn` (its KernelInit: input 0 is the Concat's output, which it does not
/// read) computed from `parts`, the inputs of the Concat along channels that produced its input,
/// all fp32 channels-last: each pixel's runs of channels read where they lie. nullptr when the
/// tensors are not such (the caller keeps the Concat and the usual kernel).
std::unique_ptr<Kernel> createConcatBatchNorm(const KernelInit& bn,
                                              const std::vector<TensorRef>& parts);
}  // namespace asc::ops
