// unary_kernel.h: element-wise unary kernels (see unary_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createUnaryKernel(const KernelInit& k);
/// Element-wise ops keep their input's layout.
Layout unaryLayout(const ir::Node& n, const std::vector<Layout>& in);
}  // namespace asc::ops
