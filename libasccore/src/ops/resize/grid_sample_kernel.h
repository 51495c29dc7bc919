// grid_sample_kernel.h: GridSample (see grid_sample_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createGridSampleKernel(const KernelInit& k);
}  // namespace asc::ops
