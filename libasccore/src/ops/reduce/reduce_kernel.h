// reduce_kernel.h: ReduceMean / ReduceSum / ReduceMax (see reduce_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createReduceKernel(const KernelInit& k);
}  // namespace asc::ops
