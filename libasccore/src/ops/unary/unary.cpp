// unary.cpp: element-wise unary ops (activations and math). Output = input's shape and dtype.
// Clip's min/max were attributes before opset 11 and inputs since; constant ones become
// attributes, run-time ones stay inputs.
// PRelu's slope broadcasts to x one way; a legacy (opset < 7) per-channel slope of shape [C]
// is rewritten to [C, 1, ..., 1] so later stages see numpy broadcasting only.
#include <cmath>
#include <limits>

#include "asc/support/fp16.h"
#include "ops/op_util.h"
#include "unary_kernel.h"
#include "ops/binary/binary_kernel.h"

namespace asc::ops {
namespace {

Status inferFloatUnary(InferContext& ctx) {
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  return inferSameAsInput0(ctx);
}

int64_t flopsPerElement(const ir::Node& n, int64_t k) { return n.outputs[0]->numel() * k; }

template <double (*F)(double)>
Result<std::vector<ir::Tensor>> evalUnary(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  auto r = evalBroadcast(
      {in[0]}, in[0].dtype, in[0].shape, [](const double* a) { return F(a[0]); },
      [](const int64_t* a) { return static_cast<int64_t>(F(double(a[0]))); });
  if (!r) return r.status();
  return std::vector<ir::Tensor>{*r};
}

double reluF(double x) { return x > 0 ? x : 0; }
double sqrtF(double x) { return std::sqrt(x); }
double expF(double x) { return std::exp(x); }
double logF(double x) { return std::log(x); }

// Constant bounds become attributes (the form the fusion passes and oneDNN's clip take); a
// bound computed at run time keeps both bound inputs, which the kernel then reads on every run.
Status canonClip(InferContext& ctx) {
  if (ctx.opset() < 11) return Status::ok();
  for (size_t i = 1; i < 3 && i < ctx.numInputs(); ++i)
    if (ctx.hasInput(i) && !ctx.constInput(i)) {
      if (ctx.input(i).numel() != 1)
        return ctx.fail("input {} must hold one value, it holds {}", i, ctx.input(i).numel());
      if (ctx.dtype(i) != ctx.dtype(0))
        return ctx.fail("bound {} has dtype {}, the input {}", i, ir::dtypeName(ctx.dtype(i)),
                        ir::dtypeName(ctx.dtype(0)));
      return Status::ok();
    }
  ASC_RETURN_IF_ERROR(ctx.moveInputToFloat(1, "min"));
  ASC_RETURN_IF_ERROR(ctx.moveInputToFloat(2, "max"));
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferLeakyRelu(InferContext& ctx) { return inferFloatUnary(ctx); }
// Gelu-20: the erf form (approximate "none") or the tanh approximation ("tanh").
Status inferGelu(InferContext& ctx) {
  const std::string approx = ctx.attrs().getString("approximate", "none");
  if (approx != "none" && approx != "tanh")
    return ctx.fail("attribute approximate='{}' is not one of Gelu-20's: 'none' (erf) or 'tanh'",
                    approx);
  return inferFloatUnary(ctx);
}

Status canonPRelu(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const ir::Shape& s = ctx.shape(1);
  // Before opset 7 a 1-D slope of C values applied per channel (axis 1), not to the last axis.
  if (ctx.opset() >= 7 || x.size() < 3 || s.size() != 1 || s[0] != x[1] || s[0] == 1)
    return Status::ok();
  const ir::Value* c = ctx.constInput(1);
  if (!c)
    return ctx.fail("a per-channel slope of shape [{}] (opset {}) must be a constant",
                    ir::shapeToString(s), ctx.opset());
  ir::Shape cs(x.size() - 1, 1);
  cs[0] = s[0];
  ir::Tensor t = reshapeTensor(c->tensor(), cs);
  ctx.node().inputs[1] = ctx.graph().addConstant(c->name + "_per_channel", t);
  return Status::ok();
}

Status inferPRelu(InferContext& ctx) {
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  if (ctx.dtype(1) != ctx.dtype(0))
    return ctx.fail("slope dtype {} differs from input dtype {}", ir::dtypeName(ctx.dtype(1)),
                    ir::dtypeName(ctx.dtype(0)));
  auto b = broadcastShapes(ctx.shape(0), ctx.shape(1));
  if (!b || *b != ctx.shape(0))
    return ctx.fail("slope of shape [{}] does not broadcast to the input shape [{}]",
                    ir::shapeToString(ctx.shape(1)), ir::shapeToString(ctx.shape(0)));
  return inferSameAsInput0(ctx);
}

Result<std::vector<ir::Tensor>> evalPRelu(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  auto r = evalBroadcast(
      {in[0], in[1]}, in[0].dtype, in[0].shape,
      [](const double* a) { return a[0] >= 0 ? a[0] : a[0] * a[1]; },
      [](const int64_t* a) { return a[0] >= 0 ? a[0] : a[0] * a[1]; });
  if (!r) return r.status();
  return std::vector<ir::Tensor>{*r};
}

// The chain every element-wise unary op shares: its kernel, its layout rule, the ONNX opset
// that introduced it and its shape inference.
OpDef unaryOp(const char* name, ScalarFn fn, int since, InferFn infer) {
  return OpDef(name)
      .scalarFunction(fn)
      .kernel(createUnaryKernel)
      .layout(unaryLayout)
      .onnx(since)
      .inferShape(infer);
}

// Clip is CANN's ClipByValue, its bounds inputs of the input's type (fp32 or fp16; an absent
// bound is the type's limit).
CannSpelling clipSpelling(const ir::Node& n) {
  CannSpelling c;
  const bool half = n.input(0) && n.input(0)->dtype == ir::DType::F16;
  for (const char* b : {"min", "max"}) {
    const float v = n.attrs.getFloat(b, b[1] == 'i' ? -std::numeric_limits<float>::infinity()
                                                    : std::numeric_limits<float>::infinity());
    const uint16_t h = floatToHalf(v);
    c.const_inputs.emplace_back(
        std::string("clip_value_") + b,
        half ? ir::Tensor{ir::DType::F16, {}, ir::Blob::copyOf(&h, sizeof(h))}
             : ir::Tensor{ir::DType::F32, {}, ir::Blob::copyOf(&v, sizeof(v))});
  }
  return c;
}

// LeakyRelu's alpha is CANN's negative_slope.
CannSpelling leakyReluSpelling(const ir::Node& n) {
  CannSpelling c;
  c.attrs = {{"negative_slope", n.attrs.getFloat("alpha", 0.01f)}};
  return c;
}

}  // namespace

const OpDef& defRelu() {
  static const OpDef d = unaryOp("Relu", ScalarFn::Relu, 6, inferSameAsInput0)
                             .works5hd(FiveHd::Elementwise)
                             .fusableActivation()
                             .evalConst(evalUnary<reluF>)
                             .flops([](const ir::Node& n) { return flopsPerElement(n, 1); })
                             .summary("max(x, 0)");
  return d;
}

const OpDef& defLeakyRelu() {
  static const OpDef d = unaryOp("LeakyRelu", ScalarFn::LeakyRelu, 6, inferLeakyRelu)
                             .cannSpelling(leakyReluSpelling)
                             .works5hd(FiveHd::Elementwise)
                             .fusableActivation()
                             .flops([](const ir::Node& n) { return flopsPerElement(n, 2); })
                             .summary("x >= 0 ? x : alpha*x (alpha default 0.01)");
  return d;
}

const OpDef& defPRelu() {
  static const OpDef d = OpDef("PRelu")
                             .kernel(createBinaryKernel)
                             .onnx(1)
                             .cann("PRelu")
                             .inputs(2, 2)
                             .canonicalize(canonPRelu)
                             .inferShape(inferPRelu)
                             .evalConst(evalPRelu)
                             .flops([](const ir::Node& n) { return flopsPerElement(n, 2); })
                             .summary("x >= 0 ? x : slope*x; slope broadcasts to x");
  return d;
}

const OpDef& defSigmoid() {
  static const OpDef d = unaryOp("Sigmoid", ScalarFn::Sigmoid, 6, inferFloatUnary)
                             .works5hd(FiveHd::Elementwise)
                             .fusableActivation()
                             .flops([](const ir::Node& n) { return flopsPerElement(n, 4); })
                             .summary("1 / (1 + exp(-x))");
  return d;
}

const OpDef& defTanh() {
  static const OpDef d = unaryOp("Tanh", ScalarFn::Tanh, 6, inferFloatUnary)
                             .works5hd(FiveHd::Elementwise)
                             .fusableActivation()
                             .flops([](const ir::Node& n) { return flopsPerElement(n, 4); })
                             .summary("tanh(x)");
  return d;
}

const OpDef& defErf() {
  static const OpDef d = unaryOp("Erf", ScalarFn::Erf, 9, inferFloatUnary)
                             .precisionClass(PrecisionClass::Sensitive)
                             .flops([](const ir::Node& n) { return flopsPerElement(n, 8); })
                             .summary("Gauss error function");
  return d;
}

const OpDef& defHardSigmoid() {
  static const OpDef d = unaryOp("HardSigmoid", ScalarFn::HardSigmoid, 6, inferFloatUnary)
                             .works5hd(FiveHd::Elementwise)
                             .fusableActivation()
                             .flops([](const ir::Node& n) { return flopsPerElement(n, 3); })
                             .summary("max(0, min(1, alpha*x + beta)), alpha 0.2, beta 0.5");
  return d;
}

const OpDef& defHardSwish() {
  static const OpDef d = unaryOp("HardSwish", ScalarFn::HardSwish, 14, inferFloatUnary)
                             .works5hd(FiveHd::Elementwise)
                             .fusableActivation()
                             .flops([](const ir::Node& n) { return flopsPerElement(n, 4); })
                             .summary("x * max(0, min(1, x/6 + 1/2))");
  return d;
}

const OpDef& defClip() {
  static const OpDef d =
      unaryOp("Clip", ScalarFn::Clip, 6, inferSameAsInput0)
          .works5hd(FiveHd::Elementwise)
          .fusableActivation()
          .cann("ClipByValue")
          .cannSpelling(clipSpelling)
          .inputs(1, 3)
          .canonicalize(canonClip)
          .flops([](const ir::Node& n) { return flopsPerElement(n, 2); })
          .summary("min(max(x, min), max); min/max as attributes or constant inputs");
  return d;
}

// Gelu is an ONNX op from opset 20 on; before, it only comes from the fuse-gelu pass.
const OpDef& defGelu() {
  static const OpDef d = unaryOp("Gelu", ScalarFn::Gelu, 20, inferGelu)
                             .works5hd(FiveHd::Elementwise)
                             .fusableActivation()
                             .flops([](const ir::Node& n) { return flopsPerElement(n, 8); })
                             .summary(
                                 "0.5 * x * (1 + erf(x / sqrt(2))), or with approximate 'tanh' "
                                 "0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))) "
                                 "(Gelu-20; also from the fuse-gelu pass)");
  return d;
}

// Swish is an ONNX op from opset 24 on (x * sigmoid(alpha * x)); before, it only comes from the
// fuse-swish pass (SiLU, alpha 1).
const OpDef& defSwish() {
  static const OpDef d = unaryOp("Swish", ScalarFn::Swish, 24, inferFloatUnary)
                             .works5hd(FiveHd::Elementwise)
                             .fusableActivation()
                             .flops([](const ir::Node& n) { return flopsPerElement(n, 5); })
                             .summary(
                                 "x * sigmoid(alpha * x), alpha 1 by default (Swish-24; "
                                 "also from the fuse-swish pass)");
  return d;
}

const OpDef& defSqrt() {
  static const OpDef d = unaryOp("Sqrt", ScalarFn::Sqrt, 6, inferFloatUnary)
                             .precisionClass(PrecisionClass::Sensitive)
                             .evalConst(evalUnary<sqrtF>)
                             .flops([](const ir::Node& n) { return flopsPerElement(n, 1); })
                             .summary("square root");
  return d;
}

const OpDef& defExp() {
  static const OpDef d = unaryOp("Exp", ScalarFn::Exp, 6, inferFloatUnary)
                             .precisionClass(PrecisionClass::Sensitive)
                             .evalConst(evalUnary<expF>)
                             .flops([](const ir::Node& n) { return flopsPerElement(n, 1); })
                             .summary("e^x");
  return d;
}

const OpDef& defLog() {
  static const OpDef d = unaryOp("Log", ScalarFn::Log, 6, inferFloatUnary)
                             .precisionClass(PrecisionClass::Sensitive)
                             .evalConst(evalUnary<logF>)
                             .flops([](const ir::Node& n) { return flopsPerElement(n, 1); })
                             .summary("natural logarithm");
  return d;
}

}  // namespace asc::ops
