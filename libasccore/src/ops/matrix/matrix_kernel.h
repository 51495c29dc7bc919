// matrix_kernel.h: Trilu (see matrix_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createTriluKernel(const KernelInit& k);

/// Trilu on raw buffers of `es`-byte elements: the last two dims of shape x form the matrices;
/// upper keeps j - i >= k, lower keeps j - i <= k, the rest becomes 0.
void trilu(const uint8_t* in, uint8_t* out, const ir::Shape& x, size_t es, bool upper, int64_t k);
}  // namespace asc::ops
