// math_fn.h: the scalar functions of the element-wise math ops (math.cpp), shared by their
// kernels (math_kernel.cpp) and their constant evaluation, so both compute the same thing.
// The op's OpDef names its function (OpDef::scalarFunction); withFloatFn / withNumericFn /
// withPredicate call `visit` with a generic lambda for that function (and the node's
// attributes) and return false for a function of another group.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "asc/ir/graph.h"
#include "asc/ops/op_def.h"

namespace asc::ops::math {

/// Ops defined on float types only (fp16/bf16 compute in fp32, fp64 in double).
template <typename V>
bool withFloatFn(ScalarFn t, const ir::Attrs& a, V&& visit) {
  using F = ScalarFn;
  if (t == F::Ceil) return visit([](auto x) { return std::ceil(x); }), true;
  if (t == F::Floor) return visit([](auto x) { return std::floor(x); }), true;
  // Round: halves to the nearest even (numpy.round), the default rounding mode of nearbyint.
  if (t == F::Round) return visit([](auto x) { return std::nearbyint(x); }), true;
  if (t == F::Reciprocal) return visit([](auto x) { return decltype(x)(1) / x; }), true;
  if (t == F::Sin) return visit([](auto x) { return std::sin(x); }), true;
  if (t == F::Cos) return visit([](auto x) { return std::cos(x); }), true;
  if (t == F::Tan) return visit([](auto x) { return std::tan(x); }), true;
  if (t == F::Asin) return visit([](auto x) { return std::asin(x); }), true;
  if (t == F::Acos) return visit([](auto x) { return std::acos(x); }), true;
  if (t == F::Atan) return visit([](auto x) { return std::atan(x); }), true;
  if (t == F::Sinh) return visit([](auto x) { return std::sinh(x); }), true;
  if (t == F::Cosh) return visit([](auto x) { return std::cosh(x); }), true;
  if (t == F::Asinh) return visit([](auto x) { return std::asinh(x); }), true;
  if (t == F::Acosh) return visit([](auto x) { return std::acosh(x); }), true;
  if (t == F::Atanh) return visit([](auto x) { return std::atanh(x); }), true;
  if (t == F::Softsign)
    return visit([](auto x) { return x / (decltype(x)(1) + std::fabs(x)); }), true;
  if (t == F::Softplus)  // log(1 + e^x) without overflow for large x
    return visit([](auto x) {
             using T = decltype(x);
             return x > T(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
           }),
           true;
  if (t == F::Mish)  // x * tanh(softplus(x)), softplus as above
    return visit([](auto x) {
             using T = decltype(x);
             const T sp = x > T(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
             return T(x * std::tanh(sp));
           }),
           true;
  if (t == F::Elu) {
    const double alpha = a.getFloat("alpha", 1.f);
    return visit([alpha](auto x) {
             using T = decltype(x);
             return x >= T(0) ? x : T(alpha) * std::expm1(x);
           }),
           true;
  }
  if (t == F::Celu) {
    const double alpha = a.getFloat("alpha", 1.f);
    return visit([alpha](auto x) {
             using T = decltype(x);
             return std::fmax(T(0), x) + std::fmin(T(0), T(alpha) * std::expm1(x / T(alpha)));
           }),
           true;
  }
  if (t == F::Selu) {
    const double alpha = a.getFloat("alpha", 1.67326319217681884765625f);
    const double gamma = a.getFloat("gamma", 1.05070102214813232421875f);
    return visit([alpha, gamma](auto x) {
             using T = decltype(x);
             return x > T(0) ? T(gamma) * x : T(gamma) * T(alpha) * std::expm1(x);
           }),
           true;
  }
  if (t == F::ThresholdedRelu) {
    const double alpha = a.getFloat("alpha", 1.f);
    return visit([alpha](auto x) {
             using T = decltype(x);
             return x > T(alpha) ? x : T(0);
           }),
           true;
  }
  if (t == F::Shrink) {
    const double bias = a.getFloat("bias", 0.f), lambd = a.getFloat("lambd", 0.5f);
    return visit([bias, lambd](auto x) {
             using T = decltype(x);
             return x < T(-lambd) ? T(x + T(bias)) : x > T(lambd) ? T(x - T(bias)) : T(0);
           }),
           true;
  }
  return false;
}

/// Ops defined on every numeric type (integers exactly).
template <typename V>
bool withNumericFn(ScalarFn t, V&& visit) {
  using F = ScalarFn;
  if (t == F::Abs)
    return visit([](auto x) {
             using T = decltype(x);
             if constexpr (std::is_unsigned<T>::value)
               return x;
             else
               return x < T(0) ? T(T(0) - x) : x;
           }),
           true;
  if (t == F::Neg)
    return visit([](auto x) {
             using T = decltype(x);
             return T(T(0) - x);
           }),
           true;
  if (t == F::BitwiseNot)  // integers only (inferInteger)
    return visit([](auto x) {
             using T = decltype(x);
             if constexpr (std::is_integral<T>::value)
               return T(~x);
             else
               return x;
           }),
           true;
  if (t == F::Sign)
    return visit([](auto x) {
             using T = decltype(x);
             return x > T(0) ? T(1) : x < T(0) ? T(-1) : T(0);
           }),
           true;
  return false;
}

/// Float -> bool tests (IsNaN, IsInf with detect_negative / detect_positive).
template <typename V>
bool withPredicate(ScalarFn t, const ir::Attrs& a, V&& visit) {
  using F = ScalarFn;
  if (t == F::IsNaN) return visit([](auto x) { return std::isnan(x); }), true;
  if (t == F::IsInf) {
    const bool neg = a.getInt("detect_negative", 1) != 0;
    const bool pos = a.getInt("detect_positive", 1) != 0;
    return visit([neg, pos](auto x) { return std::isinf(x) && (x > 0 ? pos : neg); }), true;
  }
  return false;
}

}  // namespace asc::ops::math
