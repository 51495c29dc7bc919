// lib/matrix/matmul/matmul.h: CANN 7's cube-side Matmul, MatmulImpl<A, B, C, Bias>. Its kernels
// run on the cube core: they call Init(&tiling, &pipe) themselves (no REGIST_MATMUL_OBJ), return
// on the vector cores (`if (g_coreType == AIV) return;`) and are launched without SetKernelMode.
// Here MatmulImpl is lib/matmul_intf.h's Matmul, and a program that includes this header
// launches its kernels through ICPU_RUN_KF as AIC (one cube core per block, g_coreType ==
// AscendC::AIC) unless it calls SetKernelMode. Only that KernelLaunch form is served: the
// kernel wrappers of operator packages know lib/matmul_intf.h only.
#pragma once

#include "lib/matmul_intf.h"

namespace asc::ascendc::detail {
[[maybe_unused]] static const bool kCubeOnlyApiNoted = (noteCubeOnlyApi(), true);
}  // namespace asc::ascendc::detail

namespace AscendC {
/// ceil(num1 / num2) for a positive num2 (the Matmul utilities' helper, which these kernels use
/// to split M and N over blocks).
template <typename T>
inline T Ceil(T num1, T num2) {
  if (!(num2 > 0)) asc::ascendc::detail::failf("Ceil", "the divisor ", num2, " is not positive");
  return (num1 + num2 - 1) / num2;
}

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE,
          const auto& MM_CFG = CFG_NORM>
using MatmulImpl = Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG>;
}  // namespace AscendC
