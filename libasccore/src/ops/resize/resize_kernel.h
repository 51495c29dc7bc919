// resize_kernel.h: Resize and Upsample (see resize_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createResizeKernel(const KernelInit& k);
}  // namespace asc::ops
