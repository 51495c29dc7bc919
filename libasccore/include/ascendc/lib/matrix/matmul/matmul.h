// lib/matrix/matmul/matmul.h: CANN 7's cube-side Matmul, MatmulImpl<A, B, C, Bias>. Its kernels
// run on the cube core: they call Init(&tiling, &pipe) themselves (no REGIST_MATMUL_OBJ), return
// on the vector cores (`if (g_coreType == AIV) return;`) and are launched without SetKernelMode.
// Here MatmulImpl is lib/matmul_intf.h's Matmul, and a program that includes this header
// launches its kernels through ICPU_RUN_KF as AIC (one cube core per block, g_coreType ==
// AscendC::AIC) unless it calls SetKernelMode. Only that KernelLaunch form is served: the
// kernel wrappers of operator packages know lib/matmul_intf.h only.
#pragma once

#include "lib/matmul_intf.h"
#include "lib/matrix/matmul/matmul_impl.h"

namespace asc::ascendc::detail {
[[maybe_unused]] static const bool kCubeOnlyApiNoted = (noteCubeOnlyApi(), true);
}  // namespace asc::ascendc::detail

// Ceil and MatmulImpl: lib/matrix/matmul/matmul_impl.h.
