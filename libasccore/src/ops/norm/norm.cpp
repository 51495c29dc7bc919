// norm.cpp: normalization ops. BatchNormalization (-> CANN BatchNorm) is compiled for inference
// only: its extra training outputs (running mean/var, saved stats) are refused. Per-channel
// parameters must be 1-D of size C. InstanceNormalization (-> InstanceNorm) normalizes each
// (n, c) plane; LayerNormalization (opset 17, -> LayerNorm) normalizes over dims [axis, rank)
// and may give Mean and InvStdDev in the stash dtype; RMSNormalization (opset 23, -> RmsNorm)
// divides by the root mean square over dims [axis, rank); LRN normalizes across channels;
// MeanVarianceNormalization normalizes over a set of axes (population variance, ONNX's 1e-9
// added to the standard deviation).
#include <algorithm>

#include "ops/op_util.h"
#include "norm_kernel.h"

namespace asc::ops {
namespace {

Status checkFloatInput(InferContext& ctx) {
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  return Status::ok();
}

// Checks that input i is a 1-D tensor of c elements (a parameter per channel, or per `unit`).
Status checkPerChannel(InferContext& ctx, size_t i, const char* what, int64_t c,
                       const char* unit = "channel") {
  const ir::Shape& s = ctx.shape(i);
  if (s.size() != 1 || s[0] != c)
    return ctx.fail("{} (input {}) has shape [{}], expected [{}] (one value per {})", what, i,
                    ir::shapeToString(s), c, unit);
  if (!ir::isFloat(ctx.dtype(i)))
    return ctx.fail("{} (input {}) has dtype {}, expected a float type", what, i,
                    ir::dtypeName(ctx.dtype(i)));
  return Status::ok();
}

Status inferBatchNorm(InferContext& ctx) {
  if (ctx.node().outputs.size() > 1)
    return ctx.unsupported(
        "has {} outputs: training-mode BatchNormalization (running mean/var "
        "outputs) is not supported, only inference with one output",
        ctx.node().outputs.size());
  if (ctx.attrs().getInt("training_mode", 0) != 0)
    return ctx.unsupported("training_mode=1 is not supported, only inference");
  if (ctx.opset() < 9 && ctx.attrs().getInt("spatial", 1) != 1)
    return ctx.fail("spatial=0 (per-activation statistics) is not supported");
  ASC_RETURN_IF_ERROR(checkFloatInput(ctx));
  const ir::Shape& x = ctx.shape(0);
  if (x.size() < 2)
    return ctx.fail("input must have rank >= 2 (N, C, ...), it has shape [{}]",
                    ir::shapeToString(x));
  const char* names[] = {"scale", "bias", "mean", "var"};
  for (size_t i = 1; i <= 4; ++i) ASC_RETURN_IF_ERROR(checkPerChannel(ctx, i, names[i - 1], x[1]));
  float eps = ctx.attrs().getFloat("epsilon", 1e-5f);
  if (!(eps >= 0)) return ctx.fail("epsilon {} must be >= 0", eps);
  ctx.attrs().set("epsilon", eps);
  ctx.attrs().erase("spatial");
  ctx.attrs().erase("is_test");
  ctx.attrs().erase("consumed_inputs");
  return inferSameAsInput0(ctx);
}

Status inferInstanceNorm(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkFloatInput(ctx));
  const ir::Shape& x = ctx.shape(0);
  if (x.size() < 3)
    return ctx.fail("input must have rank >= 3 (N, C, spatial...), it has shape [{}]",
                    ir::shapeToString(x));
  ASC_RETURN_IF_ERROR(checkPerChannel(ctx, 1, "scale", x[1]));
  ASC_RETURN_IF_ERROR(checkPerChannel(ctx, 2, "bias", x[1]));
  ctx.attrs().set("epsilon", ctx.attrs().getFloat("epsilon", 1e-5f));
  ctx.attrs().erase("consumed_inputs");
  return inferSameAsInput0(ctx);
}

// GroupNormalization: num_groups groups of C / num_groups channels each, normalized together;
// scale and bias have one value per group (version 18) or per channel (version 21: the importer
// sets _asc_affine_per_channel).
Status inferGroupNorm(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkFloatInput(ctx));
  const ir::Shape& x = ctx.shape(0);
  if (x.size() < 3)
    return ctx.fail("input must have rank >= 3 (N, C, spatial...), it has shape [{}]",
                    ir::shapeToString(x));
  if (!ctx.attrs().has("num_groups")) return ctx.fail("attribute num_groups is required");
  const int64_t g = ctx.attrs().getInt("num_groups", 0);
  if (g <= 0 || x[1] % g != 0)
    return ctx.fail("num_groups {} must be positive and divide the {} channels", g, x[1]);
  const bool per_channel = ctx.attrs().getInt("_asc_affine_per_channel", 0) != 0;
  ASC_RETURN_IF_ERROR(
      checkPerChannel(ctx, 1, "scale", per_channel ? x[1] : g, per_channel ? "channel" : "group"));
  ASC_RETURN_IF_ERROR(
      checkPerChannel(ctx, 2, "bias", per_channel ? x[1] : g, per_channel ? "channel" : "group"));
  ctx.attrs().set("epsilon", ctx.attrs().getFloat("epsilon", 1e-5f));
  return inferSameAsInput0(ctx);
}

Status inferLayerNorm(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkFloatInput(ctx));
  const ir::Shape& x = ctx.shape(0);
  const int64_t r = ctx.rank(0);
  if (r < 1) return ctx.fail("input must have rank >= 1, it is a scalar");
  int64_t axis_attr = ctx.attrs().getInt("axis", -1);
  auto axis = normalizeAxis(axis_attr, r);
  if (!axis) return ctx.fail("axis {} is out of range for an input of rank {}", axis_attr, r);
  const ir::Shape norm_shape(x.begin() + *axis, x.end());
  const char* names[] = {"", "scale", "bias"};
  for (size_t i = 1; i <= 2; ++i) {
    if (!ctx.hasInput(i)) continue;
    auto b = broadcastShapes(norm_shape, ctx.shape(i));
    if (!b || *b != norm_shape)
      return ctx.fail("{} of shape [{}] does not broadcast to the normalized shape [{}]", names[i],
                      ir::shapeToString(ctx.shape(i)), ir::shapeToString(norm_shape));
  }
  int64_t stash = ctx.attrs().getInt("stash_type", 1);
  ir::DType stash_t = ir::dtypeFromOnnx(static_cast<int>(stash));
  if (!ir::isFloat(stash_t)) return ctx.fail("stash_type {} is not a supported float type", stash);
  ctx.attrs().set("axis", *axis);
  ctx.attrs().set("epsilon", ctx.attrs().getFloat("epsilon", 1e-5f));
  ctx.attrs().set("stash_type", stash);
  ir::Shape stat_shape = x;
  for (int64_t i = *axis; i < r; ++i) stat_shape[i] = 1;
  ctx.setOutput(0, ctx.dtype(0), x);
  ctx.setOutput(1, stash_t, stat_shape);
  ctx.setOutput(2, stash_t, stat_shape);
  return Status::ok();
}

// RMSNormalization-23: x / sqrt(mean(x^2 over dims [axis, rank)) + epsilon) * scale.
Status inferRmsNorm(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkFloatInput(ctx));
  const ir::Shape& x = ctx.shape(0);
  const int64_t r = ctx.rank(0);
  if (r < 1) return ctx.fail("input must have rank >= 1, it is a scalar");
  const int64_t axis_attr = ctx.attrs().getInt("axis", -1);
  auto axis = normalizeAxis(axis_attr, r);
  if (!axis) return ctx.fail("axis {} is out of range for an input of rank {}", axis_attr, r);
  const ir::Shape norm_shape(x.begin() + *axis, x.end());
  auto b = broadcastShapes(norm_shape, ctx.shape(1));
  if (!b || *b != norm_shape)
    return ctx.fail("scale of shape [{}] does not broadcast to the normalized shape [{}]",
                    ir::shapeToString(ctx.shape(1)), ir::shapeToString(norm_shape));
  const int64_t stash = ctx.attrs().getInt("stash_type", 1);
  if (!ir::isFloat(ir::dtypeFromOnnx(static_cast<int>(stash))))
    return ctx.fail("stash_type {} is not a supported float type", stash);
  const float eps = ctx.attrs().getFloat("epsilon", 1e-5f);
  if (!(eps >= 0)) return ctx.fail("epsilon {} must be >= 0", eps);
  ctx.attrs().set("axis", *axis);
  ctx.attrs().set("epsilon", eps);
  ctx.attrs().set("stash_type", stash);
  ctx.setOutput(0, ctx.dtype(0), x);
  return Status::ok();
}

Status inferLrn(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkFloatInput(ctx));
  const ir::Shape& x = ctx.shape(0);
  if (x.size() < 3)
    return ctx.fail("input must have rank >= 3 (N, C, spatial...), it has shape [{}]",
                    ir::shapeToString(x));
  if (!ctx.attrs().has("size")) return ctx.fail("attribute size is required");
  int64_t size = ctx.attrs().getInt("size", 0);
  if (size <= 0) return ctx.fail("size {} must be positive", size);
  ir::Attrs& a = ctx.attrs();
  a.set("alpha", a.getFloat("alpha", 1e-4f));
  a.set("beta", a.getFloat("beta", 0.75f));
  a.set("bias", a.getFloat("bias", 1.0f));
  return inferSameAsInput0(ctx);
}

int64_t perElement(const ir::Node& n, int64_t k) { return n.outputs[0]->numel() * k; }

// MeanVarianceNormalization: axes (default [0, 2, 3]) normalized, sorted and made explicit.
Status inferMvn(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkFloatInput(ctx));
  const int64_t r = ctx.rank(0);
  std::vector<int64_t> axes;
  for (int64_t a : ctx.attrs().getInts("axes", {0, 2, 3})) {
    auto n = normalizeAxis(a, r);
    if (!n) return ctx.fail("axis {} is out of range for an input of rank {}", a, r);
    if (std::find(axes.begin(), axes.end(), *n) != axes.end())
      return ctx.fail("axis {} appears twice", *n);
    axes.push_back(*n);
  }
  std::sort(axes.begin(), axes.end());
  ctx.attrs().set("axes", axes);
  return inferSameAsInput0(ctx);
}

// InstanceNorm, LayerNorm and LRN as CANN spells them. CANN's LRN is TensorFlow's: a window of
// depth_radius channels each side, alpha per square (ONNX divides its alpha by size).
CannSpelling instanceNormSpelling(const ir::Node& n) {
  CannSpelling c;
  c.attrs = {{"data_format", std::string("NCHW")}, {"epsilon", n.attrs.getFloat("epsilon", 1e-5f)}};
  return c;
}

CannSpelling layerNormSpelling(const ir::Node& n) {
  CannSpelling c;
  const int64_t rank = n.input(0) ? static_cast<int64_t>(n.input(0)->shape.size()) : 0;
  int64_t axis = n.attrs.getInt("axis", -1);
  if (axis < 0) axis += rank;
  c.attrs = {{"begin_norm_axis", axis},
             {"begin_params_axis", axis},
             {"epsilon", n.attrs.getFloat("epsilon", 1e-5f)}};
  return c;
}

CannSpelling lrnSpelling(const ir::Node& n) {
  CannSpelling c;
  const int64_t size = n.attrs.getInt("size", 1);
  c.attrs = {{"depth_radius", (size - 1) / 2},
             {"bias", n.attrs.getFloat("bias", 1.f)},
             {"alpha", n.attrs.getFloat("alpha", 1e-4f) / static_cast<float>(size)},
             {"beta", n.attrs.getFloat("beta", 0.75f)},
             {"norm_region", std::string("ACROSS_CHANNELS")}};
  return c;
}

// BatchNorm as CANN spells it (inference only).
CannSpelling batchNormSpelling(const ir::Node& n) {
  CannSpelling c;
  c.attrs = {{"epsilon", n.attrs.getFloat("epsilon", 1e-5f)},
             {"data_format", std::string("NCHW")},
             {"is_training", false}};
  return c;
}

}  // namespace

const OpDef& defMeanVarianceNormalization() {
  static const OpDef d = OpDef("MeanVarianceNormalization")
                             .precisionClass(PrecisionClass::Sensitive)
                             .kernel(createNormKernel)
                             .onnx(9)
                             .inferShape(inferMvn)
                             .flops([](const ir::Node& n) { return n.outputs[0]->numel() * 6; })
                             .summary("(x - mean) / (std + 1e-9) over axes (default [0, 2, 3])");
  return d;
}

const OpDef& defBatchNormalization() {
  static const OpDef d =
      OpDef("BatchNormalization")
          .works5hd(FiveHd::Windowed)
          .takesActivations(ActivationPostOps::ReluOnly)
          .kernel(createNormKernel)
          .layout(normLayout)
          .onnx(1)
          .cann("BatchNorm")
          .cannSpelling(batchNormSpelling)
          .inputs(5, 5)
          .outputs(1, 5)
          .inferShape(inferBatchNorm)
          .flops([](const ir::Node& n) { return perElement(n, 5); })
          .summary("inference batch norm: scale*(x-mean)/sqrt(var+eps)+bias per channel");
  return d;
}

const OpDef& defInstanceNormalization() {
  static const OpDef d =
      OpDef("InstanceNormalization")
          .precisionClass(PrecisionClass::Sensitive)
          .kernel(createNormKernel)
          .layout(normLayout)
          .onnx(1)
          .cann("InstanceNorm")
          .cannSpelling(instanceNormSpelling)
          .inputs(3, 3)
          .inferShape(inferInstanceNorm)
          .flops([](const ir::Node& n) { return perElement(n, 8); })
          .summary("normalizes each (n, c) plane, then per-channel scale and bias");
  return d;
}

const OpDef& defGroupNormalization() {
  static const OpDef d =
      OpDef("GroupNormalization")
          .precisionClass(PrecisionClass::Sensitive)
          .kernel(createNormKernel)
          .layout(normLayout)
          .onnx(18)
          .cann("GroupNorm")
          .inputs(3, 3)
          .inferShape(inferGroupNorm)
          .flops([](const ir::Node& n) { return perElement(n, 8); })
          .summary("normalizes each group of C/num_groups channels, then per-group scale, bias");
  return d;
}

const OpDef& defLayerNormalization() {
  static const OpDef d =
      OpDef("LayerNormalization")
          .precisionClass(PrecisionClass::Sensitive)
          .kernel(createNormKernel)
          .layout(normLayout)
          .onnx(17)
          .cann("LayerNorm")
          .cannSpelling(layerNormSpelling)
          .inputs(2, 3)
          .outputs(1, 3)
          .inferShape(inferLayerNorm)
          .flops([](const ir::Node& n) { return perElement(n, 8); })
          .summary("normalizes over dims [axis, rank) (axis -1), then scale and optional bias");
  return d;
}

const OpDef& defRMSNormalization() {
  static const OpDef d =
      OpDef("RMSNormalization")
          .precisionClass(PrecisionClass::Sensitive)
          .kernel(createNormKernel)
          .layout(normLayout)
          .onnx(23)
          .cann("RmsNorm")
          .inputs(2, 2)
          .inferShape(inferRmsNorm)
          .flops([](const ir::Node& n) { return perElement(n, 4); })
          .summary("x / sqrt(mean(x^2 over dims [axis, rank)) + epsilon) * scale (axis -1)");
  return d;
}

const OpDef& defLRN() {
  static const OpDef d =
      OpDef("LRN")
          .works5hd(FiveHd::Windowed)
          .kernel(createNormKernel)
          .layout(normLayout)
          .onnx(1)
          .cann("LRN")
          .cannSpelling(lrnSpelling)
          .inferShape(inferLrn)
          .flops([](const ir::Node& n) { return perElement(n, 2 * n.attrs.getInt("size", 1) + 5); })
          .summary("local response normalization across `size` neighbouring channels");
  return d;
}

}  // namespace asc::ops
