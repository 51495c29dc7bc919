// binary_kernel.h: broadcasting element-wise kernels (see binary_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createBinaryKernel(const KernelInit& k);
/// Blocked only when every activation input is blocked with the output's shape and every
/// constant input is a scalar, so the op is element-wise over identical buffers.
Layout binaryLayout(const ir::Node& n, const std::vector<Layout>& in);
}  // namespace asc::ops
