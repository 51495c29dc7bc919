// norm_kernel.h: normalization kernels (see norm_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createNormKernel(const KernelInit& k);
/// BatchNormalization and LRN keep their input's layout; the others work on plain tensors.
Layout normLayout(const ir::Node& n, const std::vector<Layout>& in);
}  // namespace asc::ops
