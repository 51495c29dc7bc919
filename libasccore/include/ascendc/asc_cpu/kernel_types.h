// kernel_types.h: the Ascend C keywords and scalar types on the CPU. __global__, __aicore__ and
// __gm__ mark NPU entry points, AI Core code and global memory; on the CPU they are empty.
// half and bfloat16_t store IEEE binary16 / bfloat16 bits, compute through float, and round to
// nearest even when a float becomes one of them.
#pragma once

#include <cstdint>
#include <type_traits>

#include "asc/ascendc/kernel_context.h"
#include "asc/support/fp16.h"

// CANN's CPU debugging build defines these (users pass -DASCENDC_CPU_DEBUG, as for CANN); the
// kernel headers work either way and define them for the code that follows.
#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif
#ifndef __CCE_KT_TEST__
#define __CCE_KT_TEST__ 1
#endif

#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif

// Kernel type declarations and core-type tests. A block runs as a vector core (AIV) unless its
// launch runs cube cores: SetKernelMode(KernelMode::AIC_MODE), or a kernel on CANN 7's cube-side
// Matmul (lib/matrix/matmul/matmul.h). g_coreType reads the running block's type; unlike the
// NPU compiler's constant it is not constexpr (`if constexpr (g_coreType == AIV)` does not
// compile).
#define KERNEL_TASK_TYPE_DEFAULT(type)
#define KERNEL_TASK_TYPE(key, type)

namespace AscendC {
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
}  // namespace AscendC

namespace asc::ascendc::detail {
/// The value of `g_coreType`: AscendC::AIC in a block of a cube launch, else AscendC::AIV.
struct CoreTypeNow {
  operator int32_t() const { return onCubeCore() ? AscendC::AIC : AscendC::AIV; }
};
}  // namespace asc::ascendc::detail
inline constexpr asc::ascendc::detail::CoreTypeNow g_coreType{};
namespace AscendC {
using ::g_coreType;
}  // namespace AscendC
#define ASCEND_IS_AIV (int32_t(g_coreType) == AscendC::AIV)
#define ASCEND_IS_AIC (int32_t(g_coreType) == AscendC::AIC)
#define ASCEND_IS_NOT_AIV (int32_t(g_coreType) != AscendC::AIV)
#define ASCEND_IS_NOT_AIC (int32_t(g_coreType) != AscendC::AIC)

namespace asc::ascendc::detail {
template <typename T>
using EnableArithmetic = std::enable_if_t<std::is_arithmetic_v<T>, int>;
}  // namespace asc::ascendc::detail

/// IEEE binary16. Arithmetic goes through float (`a + b` is a float; assigning it back rounds).
struct half {
  uint16_t bits;

  half() = default;
  template <typename U, asc::ascendc::detail::EnableArithmetic<U> = 0>
  half(U v) : bits(asc::floatToHalf(static_cast<float>(v))) {}
  operator float() const { return asc::halfToFloat(bits); }
  static half fromBits(uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
  template <typename U>
  half& operator+=(U v) {
    return *this = half(float(*this) + float(v));
  }
  template <typename U>
  half& operator-=(U v) {
    return *this = half(float(*this) - float(v));
  }
  template <typename U>
  half& operator*=(U v) {
    return *this = half(float(*this) * float(v));
  }
  template <typename U>
  half& operator/=(U v) {
    return *this = half(float(*this) / float(v));
  }
};

/// bfloat16 (the top 16 bits of a float), the same way as half.
struct bfloat16_t {
  uint16_t bits;

  bfloat16_t() = default;
  template <typename U, asc::ascendc::detail::EnableArithmetic<U> = 0>
  bfloat16_t(U v) : bits(asc::floatToBf16(static_cast<float>(v))) {}
  explicit bfloat16_t(half h) : bits(asc::floatToBf16(float(h))) {}
  operator float() const { return asc::bf16ToFloat(bits); }
  static bfloat16_t fromBits(uint16_t b) {
    bfloat16_t h;
    h.bits = b;
    return h;
  }
  template <typename U>
  bfloat16_t& operator+=(U v) {
    return *this = bfloat16_t(float(*this) + float(v));
  }
  template <typename U>
  bfloat16_t& operator-=(U v) {
    return *this = bfloat16_t(float(*this) - float(v));
  }
  template <typename U>
  bfloat16_t& operator*=(U v) {
    return *this = bfloat16_t(float(*this) * float(v));
  }
  template <typename U>
  bfloat16_t& operator/=(U v) {
    return *this = bfloat16_t(float(*this) / float(v));
  }
};

static_assert(sizeof(half) == 2 && std::is_trivially_copyable_v<half>);
static_assert(sizeof(bfloat16_t) == 2 && std::is_trivially_copyable_v<bfloat16_t>);

/// The NPU's pipelines and events, for PipeBarrier/SetFlag/WaitFlag (no-ops on the CPU, where
/// every call completes before the next starts).
enum pipe_t : int {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX,
};
enum event_t : int {
  EVENT_ID0 = 0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7,
};

namespace AscendC {
/// Bytes of one C0 unit (the 32-byte block the fractal formats and DataCopy strides count in).
constexpr uint32_t DEFAULT_C0_SIZE = 32;

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX,
};
using QuePosition = TPosition;

enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MAX,
};

enum class RoundMode : uint8_t {
  CAST_NONE = 0,
  CAST_RINT,   // nearest, ties to even
  CAST_FLOOR,  // toward -inf
  CAST_CEIL,   // toward +inf
  CAST_ROUND,  // nearest, ties away from zero
  CAST_TRUNC,  // toward zero
  CAST_ODD,    // von Neumann rounding (float -> half only)
};

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };

enum class SELMODE : uint8_t {
  VSEL_CMPMASK_SPR = 0,
  VSEL_TENSOR_SCALAR_MODE,
  VSEL_TENSOR_TENSOR_MODE,
};

/// SetKernelMode (tikicpulib.h): vector-only, cube-only or mixed kernels.
enum class KernelMode : int { AIC_MODE = 0, AIV_MODE = 1, MIX_MODE = 2 };

}  // namespace AscendC
