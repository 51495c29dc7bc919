// conv_kernel.h: oneDNN convolution kernels (see conv_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createConvKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createConvTransposeKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createConvIntegerKernel(const KernelInit& k);
Layout convLayout(const ir::Node& n, const std::vector<Layout>& in);
}  // namespace asc::ops
