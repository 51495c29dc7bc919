// loss.cpp: NegativeLogLikelihoodLoss (opset 12/13) and SoftmaxCrossEntropyLoss (12/13):
// input/scores [N, C, d1, ...], integer target/labels [N, d1, ...], optional per-class weight
// [C]; reduction none (output of the target's shape), sum or mean (default; a scalar);
// ignore_index. SoftmaxCrossEntropyLoss has an optional second output, the log-softmax of the
// scores (their shape).
#include "ops/op_util.h"
#include "loss_kernel.h"

namespace asc::ops {
namespace {

Status inferLoss(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const ir::Shape& t = ctx.shape(1);
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  if (ctx.dtype(1) != ir::DType::I64 && ctx.dtype(1) != ir::DType::I32)
    return ctx.fail("target has dtype {}, expected int32 or int64", ir::dtypeName(ctx.dtype(1)));
  if (x.size() < 2) return ctx.fail("input must have rank >= 2 ([N, C, ...])");
  ir::Shape want = {x[0]};
  want.insert(want.end(), x.begin() + 2, x.end());
  if (t != want)
    return ctx.fail("target has shape [{}], expected [{}]", ir::shapeToString(t),
                    ir::shapeToString(want));
  if (ctx.numInputs() > 2 && ctx.hasInput(2)) {
    if (ctx.shape(2) != ir::Shape{x[1]})
      return ctx.fail("weight has shape [{}], expected [{}]", ir::shapeToString(ctx.shape(2)),
                      x[1]);
    if (ctx.dtype(2) != ctx.dtype(0))
      return ctx.fail("weight dtype {} differs from the input's {}", ir::dtypeName(ctx.dtype(2)),
                      ir::dtypeName(ctx.dtype(0)));
  }
  const std::string r = ctx.attrs().getString("reduction", "mean");
  if (r != "none" && r != "sum" && r != "mean")
    return ctx.fail("reduction '{}' must be none, sum or mean", r);
  ctx.attrs().set("reduction", r);
  ctx.setOutput(0, ctx.dtype(0), r == "none" ? t : ir::Shape{});
  if (ctx.node().outputs.size() > 1 && ctx.node().outputs[1]) ctx.setOutput(1, ctx.dtype(0), x);
  return Status::ok();
}

int64_t lossFlops(const ir::Node& n) { return n.inputs[0]->numel() * 4; }

}  // namespace

const OpDef& defNegativeLogLikelihoodLoss() {
  static const OpDef d = OpDef("NegativeLogLikelihoodLoss")
                             .kernel(createLossKernel)
                             .precisionClass(PrecisionClass::Sensitive)
                             .onnx(12)
                             .cann("NLLLoss")
                             .inputs(2, 3)
                             .inferShape(inferLoss)
                             .flops(lossFlops)
                             .summary(
                                 "-weight[t] * input[n][t][...] at the targets t; "
                                 "reduction none/sum/mean, ignore_index");
  return d;
}

const OpDef& defSoftmaxCrossEntropyLoss() {
  static const OpDef d = OpDef("SoftmaxCrossEntropyLoss")
                             .kernel(createLossKernel)
                             .precisionClass(PrecisionClass::Sensitive)
                             .onnx(12)
                             .cann("SoftmaxCrossEntropyLoss")
                             .inputs(2, 3)
                             .outputs(1, 2)
                             .inferShape(inferLoss)
                             .flops(lossFlops)
                             .summary(
                                 "NegativeLogLikelihoodLoss of log-softmax over C; optional "
                                 "log_prob output");
  return d;
}

}  // namespace asc::ops
