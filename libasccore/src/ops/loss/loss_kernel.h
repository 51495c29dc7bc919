// loss_kernel.h: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (see loss_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createLossKernel(const KernelInit& k);
}  // namespace asc::ops
