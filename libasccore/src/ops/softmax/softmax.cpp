// softmax.cpp: Softmax (-> CANN SoftmaxV2), LogSoftmax (-> LogSoftmaxV2) and Hardmax. Before opset
// 13 the input was coerced to 2-D [prod(dims < axis), prod(dims >= axis)] and normalized per row
// (axis default 1); since 13 the op normalizes along one axis (default -1). The canonical form
// has an explicit, non-negative "axis" and, for the old semantics, "coerce_2d" = 1 (both
// meanings agree when the axis is the last one).
#include "ops/op_util.h"
#include "softmax_kernel.h"

namespace asc::ops {
namespace {

Status inferSoftmax(InferContext& ctx) {
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  const int64_t r = ctx.rank(0);
  if (r < 1) return ctx.fail("input must have rank >= 1, it is a scalar");
  const bool legacy = ctx.opset() < 13;
  int64_t axis_attr = ctx.attrs().getInt("axis", legacy ? 1 : -1);
  auto axis = normalizeAxis(axis_attr, r);
  if (!axis) return ctx.fail("axis {} is out of range for an input of rank {}", axis_attr, r);
  ctx.attrs().set("axis", *axis);
  if (legacy)
    ctx.attrs().set("coerce_2d", int64_t{1});
  else
    ctx.attrs().erase("coerce_2d");
  return inferSameAsInput0(ctx);
}

int64_t softmaxFlops(const ir::Node& n) { return 5 * n.outputs[0]->numel(); }

Result<std::vector<ir::Tensor>> evalHardmax(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  int64_t outer, len, inner;
  softmaxView(n, in[0].shape, &outer, &len, &inner);
  std::vector<double> x(static_cast<size_t>(in[0].numel())), y(x.size());
  for (size_t i = 0; i < x.size(); ++i) x[i] = in[0].floatAt(static_cast<int64_t>(i));
  hardmax(x.data(), y.data(), outer, len, inner);
  TensorBuilder b(in[0].dtype, in[0].shape);
  for (size_t i = 0; i < y.size(); ++i) b.setFloat(static_cast<int64_t>(i), y[i]);
  return std::vector<ir::Tensor>{b.finish()};
}

// SoftmaxV2 / LogSoftmaxV2: the axis as CANN's axes list.
CannSpelling softmaxSpelling(const ir::Node& n) {
  CannSpelling c;
  c.attrs = {{"axes", std::vector<int64_t>{n.attrs.getInt("axis", -1)}}};
  return c;
}

}  // namespace

const OpDef& defSoftmax() {
  static const OpDef d = OpDef("Softmax")
                             .precisionClass(PrecisionClass::Sensitive)
                             .kernel(createSoftmaxKernel)
                             .onnx(1)
                             .cann("SoftmaxV2")
                             .cannSpelling(softmaxSpelling)
                             .inferShape(inferSoftmax)
                             .flops(softmaxFlops)
                             .summary("exp(x) / sum(exp(x)) along axis");
  return d;
}

const OpDef& defHardmax() {
  static const OpDef d = OpDef("Hardmax")
                             .kernel(createHardmaxKernel)
                             .onnx(1)
                             .inferShape(inferSoftmax)
                             .evalConst(evalHardmax)
                             .flops([](const ir::Node& n) { return n.outputs[0]->numel(); })
                             .summary("1 at the first maximum along axis, 0 elsewhere");
  return d;
}

const OpDef& defLogSoftmax() {
  static const OpDef d = OpDef("LogSoftmax")
                             .precisionClass(PrecisionClass::Sensitive)
                             .kernel(createSoftmaxKernel)
                             .onnx(1)
                             .cann("LogSoftmaxV2")
                             .cannSpelling(softmaxSpelling)
                             .inferShape(inferSoftmax)
                             .flops(softmaxFlops)
                             .summary("log(softmax(x)) along axis");
  return d;
}

}  // namespace asc::ops
