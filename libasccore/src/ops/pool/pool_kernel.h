// pool_kernel.h: oneDNN pooling kernels (see pool_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createPoolKernel(const KernelInit& k);
/// Pooling keeps its input's layout.
Layout poolLayout(const ir::Node& n, const std::vector<Layout>& in);
}  // namespace asc::ops
