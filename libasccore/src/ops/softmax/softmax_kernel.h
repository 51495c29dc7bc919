// softmax_kernel.h: Softmax and LogSoftmax on oneDNN (see softmax_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createSoftmaxKernel(const KernelInit& k);
}  // namespace asc::ops
