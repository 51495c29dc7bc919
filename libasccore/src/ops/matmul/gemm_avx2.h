// gemm_avx2.h: the runtime's own fp32 matrix product with constant weights on AVX2 + FMA CPUs
// (where oneDNN 2.6's matmul is its gemm:jit). See gemm_avx2.cpp.
#pragma once

#include <memory>

#include "asc/ops/kernel.h"

namespace asc::ops {

/// C [m, n] = A [m, k] . B + bias, then Relu when `relu` or GELU (the erf form, avx2::geluErf8)
/// when `gelu`: A and C plain fp32 rows, B the node's
/// input 1, a constant plain fp32 [k, n] (or [n, k] when `b_transposed`), bias null or n floats.
struct GemmAvx2Shape {
  int64_t m = 0, k = 0, n = 0;
  bool b_transposed = false;
  const float* bias = nullptr;
  bool relu = false;
  bool gelu = false;
};

/// Whether the kernel serves such a product on this CPU: AVX2 and FMA, ASC_GEMM_AVX2 not 0, and
/// either no AVX-512 (where oneDNN's brgemm matmul serves) or at most 4 rows.
bool gemmAvx2Serves(const GemmAvx2Shape& s);

/// The kernel over the node's A (input 0), B (input 1) and C (output 0).
Result<std::unique_ptr<Kernel>> createGemmAvx2(const KernelInit& k, const GemmAvx2Shape& s);

}  // namespace asc::ops
