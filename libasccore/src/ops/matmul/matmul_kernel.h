// matmul_kernel.h: MatMul and Gemm on oneDNN's matmul (see matmul_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createMatMulKernel(const KernelInit& k);
}  // namespace asc::ops
