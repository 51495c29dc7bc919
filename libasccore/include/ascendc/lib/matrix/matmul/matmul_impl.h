// lib/matrix/matmul/matmul_impl.h: MatmulImpl<A, B, C, Bias>, the name CANN 7's cube-side
// Matmul (lib/matrix/matmul/matmul.h) and the cube cores of a CubeResGroupHandle
// (lib/cube_group/cube_group_intf.h) give lib/matmul_intf.h's Matmul, and Ceil. Including this
// header alone changes no launch's mode (matmul.h's does).
#pragma once

#include "lib/matmul_intf.h"

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
