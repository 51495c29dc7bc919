// resize_kernel.h: Resize and Upsample (see resize_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createResizeKernel(const KernelInit& k);
/// Linear half-pixel resizing of image dims keeps the input's layout (oneDNN resampling).
Layout resizeLayout(const ir::Node& n, const std::vector<Layout>& in);
}  // namespace asc::ops
