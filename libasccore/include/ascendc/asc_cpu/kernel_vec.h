// kernel_vec.h: the vector instructions in their count forms: Op(dst, src0, src1, count),
// Op(dst, src, scalar, count), Op(dst, src, count). Every operand is checked (allocated, not
// freed, `count` elements long) before the loop. half and bfloat16_t elements are computed in
// float and rounded to nearest even once per result, which is what the NPU's vector unit gives
// for single operations; reductions accumulate in float (the NPU sums pairwise in the element
// type, so a half ReduceSum can differ from it in the last bits).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "asc_cpu/kernel_tensor.h"

namespace AscendC {
namespace detail_cpu {

template <typename T>
struct Calc {
  using type = T;
};
template <>
struct Calc<half> {
  using type = float;
};
template <>
struct Calc<bfloat16_t> {
  using type = float;
};
template <typename T>
using CalcT = typename Calc<T>::type;

/// A parameter that takes part in no deduction: Adds(halfDst, halfSrc, 2.0f, n) converts 2.0f.
template <typename T>
struct Same {
  using type = T;
};

inline void checkCount(const char* call, int64_t count) {
  if (count < 0) asc::ascendc::detail::failf(call, "count ", count, " is negative");
}

// The elementwise loops, compiled twice where GCC builds for x86-64: as the kernel's flags say
// (AVX2), and for 512-bit registers, chosen at run time (asc::ascendc::detail::wideVectors()).
// The 512-bit copy never fuses a multiply and an add (the AVX2 build has no FMA to fuse with),
// so both give the same bits. Only for plain arithmetic element types: half and bfloat16_t
// convert through float either way.
template <typename T, typename F>
void unaryLoop(T* d, const T* s, int64_t count, F f) {
  for (int64_t i = 0; i < count; ++i) d[i] = T(f(CalcT<T>(s[i])));
}
template <typename T, typename F>
void binaryLoop(T* d, const T* x, const T* y, int64_t count, F f) {
  for (int64_t i = 0; i < count; ++i) d[i] = T(f(CalcT<T>(x[i]), CalcT<T>(y[i])));
}
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ASC_VEC_WIDE_LOOPS 1
#define ASC_VEC_WIDE                                                                   \
  __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,prefer-vector-width=512"), \
                 optimize("fp-contract=off")))
template <typename T, typename F>
ASC_VEC_WIDE void unaryLoopWide(T* d, const T* s, int64_t count, F f) {
  for (int64_t i = 0; i < count; ++i) d[i] = T(f(CalcT<T>(s[i])));
}
template <typename T, typename F>
ASC_VEC_WIDE void binaryLoopWide(T* d, const T* x, const T* y, int64_t count, F f) {
  for (int64_t i = 0; i < count; ++i) d[i] = T(f(CalcT<T>(x[i]), CalcT<T>(y[i])));
}
#undef ASC_VEC_WIDE
template <typename T>
inline bool wideLoop(int64_t count) {
  static const bool wide = asc::ascendc::detail::wideVectors();  // fixed for the process
  return std::is_arithmetic_v<T> && count * int64_t(sizeof(T)) >= 256 && wide;
}
#endif

template <typename T, typename F>
void unary(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src, int64_t count,
           F f) {
  checkCount(call, count);
  T* d = dst.ascData(call, "dst", count);
  const T* s = src.ascData(call, "src", count);
#ifdef ASC_VEC_WIDE_LOOPS
  if constexpr (std::is_arithmetic_v<T>)
    if (wideLoop<T>(count)) return unaryLoopWide(d, s, count, f);
#endif
  unaryLoop(d, s, count, f);
}

template <typename T, typename F>
void binary(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& a,
            const LocalTensor<T>& b, int64_t count, F f) {
  checkCount(call, count);
  T* d = dst.ascData(call, "dst", count);
  const T* x = a.ascData(call, "src0", count);
  const T* y = b.ascData(call, "src1", count);
#ifdef ASC_VEC_WIDE_LOOPS
  if constexpr (std::is_arithmetic_v<T>)
    if (wideLoop<T>(count)) return binaryLoopWide(d, x, y, count, f);
#endif
  binaryLoop(d, x, y, count, f);
}

template <typename T>
CalcT<T> maxOf(CalcT<T> a, CalcT<T> b) {
  if constexpr (std::is_floating_point_v<CalcT<T>>)
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<CalcT<T>>::quiet_NaN();
  return a > b ? a : b;
}
template <typename T>
CalcT<T> minOf(CalcT<T> a, CalcT<T> b) {
  if constexpr (std::is_floating_point_v<CalcT<T>>)
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<CalcT<T>>::quiet_NaN();
  return a < b ? a : b;
}
}  // namespace detail_cpu

// --- two tensors --------------------------------------------------------------------------------
template <typename T>
void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  using C = detail_cpu::CalcT<T>;
  detail_cpu::binary("Add", dst, src0, src1, count, [](C a, C b) { return a + b; });
}
template <typename T>
void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  using C = detail_cpu::CalcT<T>;
  detail_cpu::binary("Sub", dst, src0, src1, count, [](C a, C b) { return a - b; });
}
template <typename T>
void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  using C = detail_cpu::CalcT<T>;
  detail_cpu::binary("Mul", dst, src0, src1, count, [](C a, C b) { return a * b; });
}
template <typename T>
void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  using C = detail_cpu::CalcT<T>;
  static_assert(std::is_floating_point_v<C>, "Div: half, bfloat16_t or float elements only");
  detail_cpu::binary("Div", dst, src0, src1, count, [](C a, C b) { return a / b; });
}
template <typename T>
void Max(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  detail_cpu::binary("Max", dst, src0, src1, count, detail_cpu::maxOf<T>);
}
template <typename T>
void Min(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  detail_cpu::binary("Min", dst, src0, src1, count, detail_cpu::minOf<T>);
}

// --- the expression forms: dst = src0 + src1 (also -, *, /) --------------------------------------
namespace detail_cpu {
/// src0 op src1, computed when assigned to a LocalTensor (LocalTensor::operator=), over as many
/// elements as all three tensors hold (CANN's count for these forms is UNCONFIRMED; where the
/// sizes agree, as the samples have them, it is every element).
template <typename T, char Op>
struct TensorExpr {
  const LocalTensor<T>& a;
  const LocalTensor<T>& b;
  void assignTo(const LocalTensor<T>& dst) const {
    const int32_t n = int32_t(std::min(dst.GetSize(), std::min(a.GetSize(), b.GetSize())));
    if constexpr (Op == '+') Add(dst, a, b, n);
    if constexpr (Op == '-') Sub(dst, a, b, n);
    if constexpr (Op == '*') Mul(dst, a, b, n);
    if constexpr (Op == '/') Div(dst, a, b, n);
  }
};
}  // namespace detail_cpu
template <typename T>
detail_cpu::TensorExpr<T, '+'> operator+(const LocalTensor<T>& a, const LocalTensor<T>& b) {
  return {a, b};
}
template <typename T>
detail_cpu::TensorExpr<T, '-'> operator-(const LocalTensor<T>& a, const LocalTensor<T>& b) {
  return {a, b};
}
template <typename T>
detail_cpu::TensorExpr<T, '*'> operator*(const LocalTensor<T>& a, const LocalTensor<T>& b) {
  return {a, b};
}
template <typename T>
detail_cpu::TensorExpr<T, '/'> operator/(const LocalTensor<T>& a, const LocalTensor<T>& b) {
  return {a, b};
}

// --- tensor and scalar --------------------------------------------------------------------------
template <typename T>
void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const typename detail_cpu::Same<T>::type& scalar, const int32_t& count) {
  using C = detail_cpu::CalcT<T>;
  C s = C(scalar);
  detail_cpu::unary("Adds", dst, src, count, [s](C a) { return a + s; });
}
template <typename T>
void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const typename detail_cpu::Same<T>::type& scalar, const int32_t& count) {
  using C = detail_cpu::CalcT<T>;
  C s = C(scalar);
  detail_cpu::unary("Muls", dst, src, count, [s](C a) { return a * s; });
}
template <typename T>
void Maxs(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const typename detail_cpu::Same<T>::type& scalar, const int32_t& count) {
  using C = detail_cpu::CalcT<T>;
  C s = C(scalar);
  detail_cpu::unary("Maxs", dst, src, count, [s](C a) { return detail_cpu::maxOf<T>(a, s); });
}
template <typename T>
void Mins(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const typename detail_cpu::Same<T>::type& scalar, const int32_t& count) {
  using C = detail_cpu::CalcT<T>;
  C s = C(scalar);
  detail_cpu::unary("Mins", dst, src, count, [s](C a) { return detail_cpu::minOf<T>(a, s); });
}
/// x >= 0 ? x : x * scalar.
template <typename T>
void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const typename detail_cpu::Same<T>::type& scalar, const int32_t& count) {
  using C = detail_cpu::CalcT<T>;
  C s = C(scalar);
  // a for a > 0, a * s otherwise (NaN stays NaN). Kernels build with -fno-trapping-math, so the
  // compiler computes both sides and blends: a multiply and a select per vector.
  detail_cpu::unary("LeakyRelu", dst, src, count, [s](C a) { return a > C(0) ? a : a * s; });
}

// --- one tensor ---------------------------------------------------------------------------------
template <typename T>
void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  detail_cpu::unary("Exp", dst, src, count, [](float a) { return std::exp(a); });
}
/// Natural logarithm.
template <typename T>
void Ln(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  detail_cpu::unary("Ln", dst, src, count, [](float a) { return std::log(a); });
}
template <typename T>
void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  using C = detail_cpu::CalcT<T>;
  detail_cpu::unary("Abs", dst, src, count, [](C a) { return a < C(0) ? C(-a) : a; });
}
template <typename T>
void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  detail_cpu::unary("Sqrt", dst, src, count, [](float a) { return std::sqrt(a); });
}
/// 1 / sqrt(x).
template <typename T>
void Rsqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  detail_cpu::unary("Rsqrt", dst, src, count, [](float a) { return 1.0f / std::sqrt(a); });
}
template <typename T>
void Reciprocal(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  detail_cpu::unary("Reciprocal", dst, src, count, [](float a) { return 1.0f / a; });
}
template <typename T>
void Relu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  using C = detail_cpu::CalcT<T>;
  detail_cpu::unary("Relu", dst, src, count, [](C a) { return a > C(0) ? a : C(0); });
}

/// Bitwise not, for 16-bit integers (as CANN's Not).
template <typename T>
void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>,
                "Not: int16_t or uint16_t elements");
  detail_cpu::unary("Not", dst, src, count, [](detail_cpu::CalcT<T> a) { return T(~T(a)); });
}

/// Bitwise and / or, for 16-bit integers (as CANN's And and Or).
namespace detail_cpu {
template <typename T, typename F>
void bitwise(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
             const LocalTensor<T>& src1, int32_t count, F f) {
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>,
                "And / Or: int16_t or uint16_t elements");
  binary(call, dst, src0, src1, count, [f](CalcT<T> a, CalcT<T> b) { return f(T(a), T(b)); });
}
}  // namespace detail_cpu
template <typename T>
void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  detail_cpu::bitwise("And", dst, src0, src1, count, [](T a, T b) { return T(a & b); });
}
template <typename T>
void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
        const int32_t& count) {
  detail_cpu::bitwise("Or", dst, src0, src1, count, [](T a, T b) { return T(a | b); });
}

/// dst[i] = firstValue + i, for the first `count` elements.
template <typename T>
void CreateVecIndex(const LocalTensor<T>& dst, const T& firstValue, uint32_t count) {
  detail_cpu::checkCount("CreateVecIndex", int64_t(count));
  T* d = dst.ascData("CreateVecIndex", "dst", count);
  using C = detail_cpu::CalcT<T>;
  for (uint32_t i = 0; i < count; ++i) d[i] = T(C(firstValue) + C(i));
}

/// dst[i] = scalar.
template <typename T>
void Duplicate(const LocalTensor<T>& dst, const typename detail_cpu::Same<T>::type& scalar,
               const int32_t& count) {
  detail_cpu::checkCount("Duplicate", count);
  T* d = dst.ascData("Duplicate", "dst", count);
  for (int32_t i = 0; i < count; ++i) d[i] = scalar;
}

// --- Cast ----------------------------------------------------------------------------------------
namespace detail_cpu {
template <typename T>
constexpr bool isHalfLike = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

/// The float `x` rounded to a 16-bit float by `mode` (RNE first, then one step if needed).
template <typename H>
H roundTo16(float x, RoundMode mode) {
  auto toF = [](uint16_t b) { return float(H::fromBits(b)); };
  H r(x);
  if (std::isnan(x) || std::isinf(x) || mode == RoundMode::CAST_NONE ||
      mode == RoundMode::CAST_RINT)
    return r;
  float rf = toF(r.bits);
  if (rf == x || std::isinf(rf)) return r;
  // Neighbour of r on the other side of x (bit patterns are sign-magnitude).
  auto step = [](uint16_t b, bool up) -> uint16_t {  // toward +inf when up
    bool neg = b & 0x8000;
    if ((b & 0x7fff) == 0) return up ? 0x0001 : 0x8001;
    return (up != neg) ? uint16_t(b + 1) : uint16_t(b - 1);
  };
  uint16_t other = step(r.bits, rf < x);
  float of = toF(other);
  float lo = rf < of ? rf : of, hi = rf < of ? of : rf;
  uint16_t lo_b = rf < of ? r.bits : other, hi_b = rf < of ? other : r.bits;
  uint16_t pick = r.bits;
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      pick = lo_b;
      break;
    case RoundMode::CAST_CEIL:
      pick = hi_b;
      break;
    case RoundMode::CAST_TRUNC:
      pick = x > 0 ? lo_b : hi_b;
      break;
    case RoundMode::CAST_ROUND:  // ties away from zero; otherwise RNE's choice
      if (double(x) - lo == double(hi) - x) pick = x > 0 ? hi_b : lo_b;
      break;
    case RoundMode::CAST_ODD:  // the neighbour with an odd last bit
      pick = (lo_b & 1) ? lo_b : hi_b;
      break;
    default:
      break;
  }
  return H::fromBits(pick);
}

inline double roundInt(double x, RoundMode mode) {
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      return std::floor(x);
    case RoundMode::CAST_CEIL:
      return std::ceil(x);
    case RoundMode::CAST_TRUNC:
      return std::trunc(x);
    case RoundMode::CAST_ROUND:
      return std::round(x);
    default:  // CAST_NONE and CAST_RINT: nearest, ties to even
      return std::nearbyint(x);
  }
}

template <typename D, typename S>
D castOne(S s, RoundMode mode) {
  if constexpr (std::is_same_v<D, S>) {
    return s;
  } else if constexpr (isHalfLike<D>) {
    return roundTo16<D>(float(s), mode);  // every int16/int32 source fits float's RNE
  } else if constexpr (std::is_floating_point_v<D>) {
    return D(CalcT<S>(s));  // to float: exact from 16-bit floats, RNE from int32
  } else {                  // to an integer: round, then saturate
    double v = double(CalcT<S>(s));
    if (std::isnan(v)) return D(0);
    v = roundInt(v, mode);
    if (v < double(std::numeric_limits<D>::lowest())) return std::numeric_limits<D>::lowest();
    if (v > double(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
    return D(v);
  }
}
}  // namespace detail_cpu

/// Converts `count` elements of S to D, rounding by `mode` where D cannot hold the value
/// exactly (CAST_NONE rounds to nearest even); integer results saturate.
template <typename D, typename S>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& mode,
          const uint32_t& count) {
  D* d = dst.ascData("Cast", "dst", count);
  const S* s = src.ascData("Cast", "src", count);
  for (uint32_t i = 0; i < count; ++i) d[i] = detail_cpu::castOne<D>(s[i], mode);
}

// --- Compare and Select --------------------------------------------------------------------------
namespace detail_cpu {
template <typename C>
bool compare(C a, C b, CMPMODE mode) {
  switch (mode) {
    case CMPMODE::LT:
      return a < b;
    case CMPMODE::GT:
      return a > b;
    case CMPMODE::EQ:
      return a == b;
    case CMPMODE::LE:
      return a <= b;
    case CMPMODE::GE:
      return a >= b;
    case CMPMODE::NE:
      return a != b;
  }
  return false;
}
template <typename U>
uint8_t* maskBytes(const char* call, const LocalTensor<U>& mask, uint64_t count) {
  uint64_t bytes = (count + 7) / 8;
  return reinterpret_cast<uint8_t*>(
      mask.ascData(call, "mask", (bytes + sizeof(U) - 1) / sizeof(U)));
}
}  // namespace detail_cpu

/// dst's bit i (bit i%8 of byte i/8) = src0[i] <mode> src1[i]; dst needs count/8 bytes.
template <typename T, typename U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE mode, uint32_t count) {
  using C = detail_cpu::CalcT<T>;
  uint8_t* m = detail_cpu::maskBytes("Compare", dst, count);
  const T* a = src0.ascData("Compare", "src0", count);
  const T* b = src1.ascData("Compare", "src1", count);
  std::memset(m, 0, (count + 7) / 8);
  for (uint32_t i = 0; i < count; ++i)
    if (detail_cpu::compare(C(a[i]), C(b[i]), mode)) m[i / 8] |= uint8_t(1u << (i % 8));
}

/// As Compare, against one scalar.
template <typename T, typename U>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                   const typename detail_cpu::Same<T>::type& scalar, CMPMODE mode, uint32_t count) {
  using C = detail_cpu::CalcT<T>;
  uint8_t* m = detail_cpu::maskBytes("CompareScalar", dst, count);
  const T* a = src0.ascData("CompareScalar", "src0", count);
  std::memset(m, 0, (count + 7) / 8);
  for (uint32_t i = 0; i < count; ++i)
    if (detail_cpu::compare(C(a[i]), C(scalar), mode)) m[i / 8] |= uint8_t(1u << (i % 8));
}

/// dst[i] = mask bit i ? src0[i] : src1[i] (VSEL_TENSOR_TENSOR_MODE).
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& mask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE mode, uint32_t count) {
  if (mode != SELMODE::VSEL_TENSOR_TENSOR_MODE)
    asc::ascendc::detail::failf("Select",
                                "with two tensors the CPU layer supports "
                                "VSEL_TENSOR_TENSOR_MODE only");
  const uint8_t* m = detail_cpu::maskBytes("Select", mask, count);
  T* d = dst.ascData("Select", "dst", count);
  const T* a = src0.ascData("Select", "src0", count);
  const T* b = src1.ascData("Select", "src1", count);
  for (uint32_t i = 0; i < count; ++i) d[i] = ((m[i / 8] >> (i % 8)) & 1) ? a[i] : b[i];
}

/// dst[i] = mask bit i ? src0[i] : scalar (VSEL_TENSOR_SCALAR_MODE).
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& mask, const LocalTensor<T>& src0,
            const typename detail_cpu::Same<T>::type& scalar, SELMODE mode, uint32_t count) {
  if (mode != SELMODE::VSEL_TENSOR_SCALAR_MODE)
    asc::ascendc::detail::failf("Select",
                                "with a scalar the mode must be "
                                "VSEL_TENSOR_SCALAR_MODE");
  const uint8_t* m = detail_cpu::maskBytes("Select", mask, count);
  T* d = dst.ascData("Select", "dst", count);
  const T* a = src0.ascData("Select", "src0", count);
  for (uint32_t i = 0; i < count; ++i) d[i] = ((m[i / 8] >> (i % 8)) & 1) ? a[i] : T(scalar);
}

// --- reductions ----------------------------------------------------------------------------------
// ReduceSum: kernel_vec_reduce.h (it adds in the vector unit's order).

namespace detail_cpu {
/// ReduceMax/Min's calIndex: the index's bits go into the element after the value (read them
/// back with a reinterpret, as on the NPU).
template <typename T>
void storeIndexBits(T* at, int64_t index) {
  if constexpr (sizeof(T) == 2) {
    uint16_t idx = uint16_t(index);
    std::memcpy(at, &idx, 2);
  } else {
    uint32_t idx = uint32_t(index);
    std::memcpy(at, &idx, sizeof(idx) <= sizeof(T) ? sizeof(idx) : sizeof(T));
  }
}
template <typename T, bool kMax>
void reduceExtreme(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                   const LocalTensor<T>& work, int32_t count, bool calIndex) {
  checkCount(call, count);
  if (count == 0) asc::ascendc::detail::failf(call, "count is 0");
  work.ascData(call, "workLocal", 0);
  const T* s = src.ascData(call, "src", count);
  T* d = dst.ascData(call, "dst", calIndex ? 2 : 1);
  using C = CalcT<T>;
  int32_t best = 0;
  for (int32_t i = 1; i < count; ++i) {
    C v = C(s[i]), b = C(s[best]);
    if (kMax ? v > b : v < b) best = i;
  }
  d[0] = s[best];
  if (calIndex) storeIndexBits(&d[1], best);
}
}  // namespace detail_cpu

/// dst[0] = the largest of src[0..count) (the first one on ties); with calIndex, dst[1] holds the
/// bits of its index.
template <typename T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const int32_t count, bool calIndex = false) {
  detail_cpu::reduceExtreme<T, true>("ReduceMax", dst, src, work, count, calIndex);
}
template <typename T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const int32_t count, bool calIndex = false) {
  detail_cpu::reduceExtreme<T, false>("ReduceMin", dst, src, work, count, calIndex);
}

}  // namespace AscendC
