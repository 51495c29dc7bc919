// attention_kernel.h: the Attention kernel (attention_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createAttentionKernel(const KernelInit& k);
}  // namespace asc::ops
