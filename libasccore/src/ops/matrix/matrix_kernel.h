// matrix_kernel.h: Trilu, Det, ReverseSequence and Einsum (see matrix_kernel.cpp).
#pragma once

#include <vector>

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createTriluKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createDetKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createReverseSequenceKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createEinsumKernel(const KernelInit& k);

/// Determinant of the n x n row-major matrix a (LU with partial pivoting, in double).
double determinant(std::vector<double> a, int64_t n);

/// Trilu on raw buffers of `es`-byte elements: the last two dims of shape x form the matrices;
/// upper keeps j - i >= k, lower keeps j - i <= k, the rest becomes 0.
void trilu(const uint8_t* in, uint8_t* out, const ir::Shape& x, size_t es, bool upper, int64_t k);
}  // namespace asc::ops
