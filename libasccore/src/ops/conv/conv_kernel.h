// conv_kernel.h: oneDNN convolution kernels (see conv_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createConvKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createConvTransposeKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createConvIntegerKernel(const KernelInit& k);
/// Conv `conv` (its KernelInit: input 0 is the Concat's output, which it does not read), a 1x1
/// convolution without stride, padding or groups and with no fused residual, computed from
/// `parts`, the inputs of the channel Concat that produced its input, all fp32 channels-last:
/// one convolution per part over its slice of the weights, summed in the destination. nullptr
/// when the tensors are not such (the caller keeps the Concat and the usual kernel).
std::unique_ptr<Kernel> createConcatConv(const KernelInit& conv,
                                         const std::vector<TensorRef>& parts);
Layout convLayout(const ir::Node& n, const std::vector<Layout>& in);
}  // namespace asc::ops
