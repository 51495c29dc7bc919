// math_kernel.h: element-wise math kernels (see math_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createMathKernel(const KernelInit& k);
/// The float-only ops keep their input's layout; the others work on plain tensors.
Layout mathLayout(const ir::Node& n, const std::vector<Layout>& in);
}  // namespace asc::ops
