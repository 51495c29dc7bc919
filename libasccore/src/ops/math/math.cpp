// math.cpp: element-wise math ops with one input: rounding (Ceil, Floor, Round), Reciprocal, the
// trigonometric and hyperbolic functions and their inverses, the activations Elu, Celu, Selu,
// Softplus, Softsign, ThresholdedRelu and Shrink (float types), Abs, Neg and Sign (every numeric
// type, integers exact), IsNaN and IsInf (float -> bool) and Not (bool). Output = the input's
// shape; dtype = the input's (bool for IsNaN/IsInf). All fold on constants through the same
// scalar functions the kernels use (math_fn.h).
#include "ops/op_util.h"
#include "math_fn.h"
#include "math_kernel.h"

namespace asc::ops {
namespace {

Status inferFloat(InferContext& ctx) {
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  return inferSameAsInput0(ctx);
}

Status inferNumeric(InferContext& ctx) {
  if (ctx.dtype(0) == ir::DType::Bool) return ctx.fail("bool input is not supported");
  return inferSameAsInput0(ctx);
}

Status inferInteger(InferContext& ctx) {
  if (!ir::isInteger(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not an integer type", ir::dtypeName(ctx.dtype(0)));
  return inferSameAsInput0(ctx);
}

Status inferPredicate(InferContext& ctx) {
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  ctx.setOutput(0, ir::DType::Bool, ctx.shape(0));
  return Status::ok();
}

Status inferNot(InferContext& ctx) {
  if (ctx.dtype(0) != ir::DType::Bool)
    return ctx.fail("input dtype {} is not bool", ir::dtypeName(ctx.dtype(0)));
  return inferSameAsInput0(ctx);
}

Result<std::vector<ir::Tensor>> evalMath(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Tensor& x = in[0];
  const ir::Value* out = n.outputs[0];
  TensorBuilder b(out->dtype, out->shape);
  const int64_t count = x.numel();
  const bool fl = ir::isFloat(x.dtype);
  const ScalarFn fn = defOf(n).scalarFn();
  if (fn == ScalarFn::Not) {
    for (int64_t i = 0; i < count; ++i) b.setInt(i, x.intAt(i) == 0);
  } else if (math::withFloatFn(fn, n.attrs, [&](auto f) {
               for (int64_t i = 0; i < count; ++i) b.setFloat(i, f(x.floatAt(i)));
             })) {
  } else if (math::withNumericFn(fn, [&](auto f) {
               for (int64_t i = 0; i < count; ++i)
                 if (fl)
                   b.setFloat(i, f(x.floatAt(i)));
                 else
                   b.setInt(i, f(x.intAt(i)));
             })) {
  } else if (math::withPredicate(fn, n.attrs, [&](auto f) {
               for (int64_t i = 0; i < count; ++i) b.setInt(i, f(x.floatAt(i)) ? 1 : 0);
             })) {
  } else {
    return Status::error(ErrorCode::Internal, "no evaluation for {}", n.op_type);
  }
  return std::vector<ir::Tensor>{b.finish()};
}

OpDef mathOp(const char* name, ScalarFn fn, int since, InferFn infer, int flops_per_element,
             const char* summary) {
  OpDef d = OpDef(name)
                .scalarFunction(fn)
                .kernel(createMathKernel)
                .layout(mathLayout)
                .onnx(since)
                .inferShape(infer)
                .evalConst(evalMath)
                .summary(summary);
  switch (flops_per_element) {  // a captureless lambda per cost
    case 1:
      d.flops([](const ir::Node& n) { return n.outputs[0]->numel(); });
      break;
    case 2:
      d.flops([](const ir::Node& n) { return n.outputs[0]->numel() * 2; });
      break;
    default:
      d.flops([](const ir::Node& n) { return n.outputs[0]->numel() * 8; });
      break;
  }
  return d;
}

// Float-only, element-wise on any layout.
OpDef floatOp(const char* name, ScalarFn fn, int since, int flops, const char* summary) {
  return mathOp(name, fn, since, inferFloat, flops, summary).works5hd(FiveHd::Elementwise);
}
// A transcendental function: fp16 loses too much, so mixed precision keeps it in fp32.
OpDef transcendental(const char* name, ScalarFn fn, int since, const char* summary) {
  return floatOp(name, fn, since, 8, summary).precisionClass(PrecisionClass::Sensitive);
}

}  // namespace

const OpDef& defAbs() {
  static const OpDef d =
      mathOp("Abs", ScalarFn::Abs, 6, inferNumeric, 1, "|x|; every numeric type");
  return d;
}
const OpDef& defNeg() {
  static const OpDef d = mathOp("Neg", ScalarFn::Neg, 6, inferNumeric, 1, "-x; every numeric type");
  return d;
}
const OpDef& defSign() {
  static const OpDef d =
      mathOp("Sign", ScalarFn::Sign, 9, inferNumeric, 1, "-1, 0 or 1; every numeric type");
  return d;
}
const OpDef& defCeil() {
  static const OpDef d = floatOp("Ceil", ScalarFn::Ceil, 6, 1, "smallest integer >= x");
  return d;
}
const OpDef& defFloor() {
  static const OpDef d = floatOp("Floor", ScalarFn::Floor, 6, 1, "largest integer <= x");
  return d;
}
const OpDef& defRound() {
  static const OpDef d =
      floatOp("Round", ScalarFn::Round, 11, 1, "nearest integer, halves to even");
  return d;
}
const OpDef& defReciprocal() {
  static const OpDef d = floatOp("Reciprocal", ScalarFn::Reciprocal, 6, 1, "1 / x")
                             .precisionClass(PrecisionClass::Sensitive);
  return d;
}
const OpDef& defSin() {
  static const OpDef d = transcendental("Sin", ScalarFn::Sin, 7, "sine");
  return d;
}
const OpDef& defCos() {
  static const OpDef d = transcendental("Cos", ScalarFn::Cos, 7, "cosine");
  return d;
}
const OpDef& defTan() {
  static const OpDef d = transcendental("Tan", ScalarFn::Tan, 7, "tangent");
  return d;
}
const OpDef& defAsin() {
  static const OpDef d = transcendental("Asin", ScalarFn::Asin, 7, "arcsine");
  return d;
}
const OpDef& defAcos() {
  static const OpDef d = transcendental("Acos", ScalarFn::Acos, 7, "arccosine");
  return d;
}
const OpDef& defAtan() {
  static const OpDef d = transcendental("Atan", ScalarFn::Atan, 7, "arctangent");
  return d;
}
const OpDef& defSinh() {
  static const OpDef d = transcendental("Sinh", ScalarFn::Sinh, 9, "hyperbolic sine");
  return d;
}
const OpDef& defCosh() {
  static const OpDef d = transcendental("Cosh", ScalarFn::Cosh, 9, "hyperbolic cosine");
  return d;
}
const OpDef& defAsinh() {
  static const OpDef d = transcendental("Asinh", ScalarFn::Asinh, 9, "inverse hyperbolic sine");
  return d;
}
const OpDef& defAcosh() {
  static const OpDef d = transcendental("Acosh", ScalarFn::Acosh, 9, "inverse hyperbolic cosine");
  return d;
}
const OpDef& defAtanh() {
  static const OpDef d = transcendental("Atanh", ScalarFn::Atanh, 9, "inverse hyperbolic tangent");
  return d;
}
const OpDef& defElu() {
  static const OpDef d =
      transcendental("Elu", ScalarFn::Elu, 6, "x >= 0 ? x : alpha*(e^x - 1), alpha 1");
  return d;
}
const OpDef& defCelu() {
  static const OpDef d = transcendental("Celu", ScalarFn::Celu, 12,
                                        "max(0, x) + min(0, alpha*(e^(x/alpha) - 1)), alpha 1")
                             .cann("CeluV2");
  return d;
}
const OpDef& defSelu() {
  static const OpDef d =
      transcendental("Selu", ScalarFn::Selu, 6,
                     "gamma * (x > 0 ? x : alpha*(e^x - 1)), alpha 1.6733, gamma 1.0507");
  return d;
}
const OpDef& defSoftplus() {
  static const OpDef d = transcendental("Softplus", ScalarFn::Softplus, 1, "log(1 + e^x)");
  return d;
}
const OpDef& defMish() {
  static const OpDef d =
      transcendental("Mish", ScalarFn::Mish, 18, "x * tanh(log(1 + e^x))").cann("Mish");
  return d;
}
const OpDef& defBitwiseNot() {
  static const OpDef d =
      mathOp("BitwiseNot", ScalarFn::BitwiseNot, 18, inferInteger, 1, "~x on integers")
          .cann("Invert");
  return d;
}
const OpDef& defSoftsign() {
  static const OpDef d = floatOp("Softsign", ScalarFn::Softsign, 1, 2, "x / (1 + |x|)");
  return d;
}
const OpDef& defThresholdedRelu() {
  static const OpDef d =
      floatOp("ThresholdedRelu", ScalarFn::ThresholdedRelu, 10, 1, "x > alpha ? x : 0, alpha 1");
  return d;
}
const OpDef& defShrink() {
  static const OpDef d = floatOp("Shrink", ScalarFn::Shrink, 9, 2,
                                 "x < -lambd ? x + bias : x > lambd ? x - bias : 0 (lambd 0.5)");
  return d;
}
const OpDef& defIsNaN() {
  static const OpDef d =
      mathOp("IsNaN", ScalarFn::IsNaN, 9, inferPredicate, 1, "x is NaN; bool output").cann("IsNan");
  return d;
}
const OpDef& defIsInf() {
  static const OpDef d = mathOp("IsInf", ScalarFn::IsInf, 10, inferPredicate, 1,
                                "x is +-inf (detect_negative, detect_positive); bool output");
  return d;
}
const OpDef& defNot() {
  static const OpDef d =
      mathOp("Not", ScalarFn::Not, 1, inferNot, 1, "logical not of a bool tensor")
          .cann("LogicalNot");
  return d;
}

}  // namespace asc::ops
