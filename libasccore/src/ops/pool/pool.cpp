// pool.cpp: pooling over the spatial dims of an (N, C, D1, ..., Dn) input. MaxPool (-> CANN
// MaxPoolV3, optional int64 Indices output) and AveragePool (-> AvgPoolV2) take kernel_shape,
// strides, dilations, pads or auto_pad and ceil_mode; auto_pad is resolved into explicit pads
// (and ceil_mode 0, since SAME/VALID sizes do not depend on it) so later stages see one form.
// GlobalAveragePool and GlobalMaxPool reduce every spatial dim to 1.
#include <algorithm>

#include "ops/op_util.h"
#include "pool_kernel.h"

namespace asc::ops {
namespace {

struct PoolGeom {
  int64_t spatial = 0;
  std::vector<int64_t> kernel, strides, dilations, pads;  // pads: begins then ends
  bool ceil_mode = false;
};

Result<PoolGeom> poolGeometry(InferContext& ctx, bool has_dilations) {
  const ir::Shape& x = ctx.shape(0);
  if (x.size() < 3)
    return ctx.fail("input must have rank >= 3 (N, C, spatial...), it has rank {} [{}]", x.size(),
                    ir::shapeToString(x));
  PoolGeom g;
  g.spatial = static_cast<int64_t>(x.size()) - 2;
  ir::Attrs& a = ctx.attrs();
  if (!a.has("kernel_shape")) return ctx.fail("attribute kernel_shape is required");
  g.kernel = a.getInts("kernel_shape");
  g.strides = a.getInts("strides", std::vector<int64_t>(g.spatial, 1));
  g.dilations = a.getInts("dilations", std::vector<int64_t>(g.spatial, 1));
  g.pads = a.getInts("pads", std::vector<int64_t>(2 * g.spatial, 0));
  g.ceil_mode = a.getInt("ceil_mode", 0) != 0;
  if (static_cast<int64_t>(g.kernel.size()) != g.spatial)
    return ctx.fail("kernel_shape [{}] has {} dims, the input has {} spatial dims",
                    ir::shapeToString(g.kernel), g.kernel.size(), g.spatial);
  if (static_cast<int64_t>(g.strides.size()) != g.spatial ||
      static_cast<int64_t>(g.dilations.size()) != g.spatial ||
      static_cast<int64_t>(g.pads.size()) != 2 * g.spatial)
    return ctx.fail("strides [{}] / dilations [{}] / pads [{}] do not match {} spatial dims",
                    ir::shapeToString(g.strides), ir::shapeToString(g.dilations),
                    ir::shapeToString(g.pads), g.spatial);
  for (int64_t i = 0; i < g.spatial; ++i) {
    if (g.kernel[i] <= 0 || g.strides[i] <= 0 || g.dilations[i] <= 0)
      return ctx.fail("kernel_shape [{}], strides [{}] and dilations [{}] must be positive",
                      ir::shapeToString(g.kernel), ir::shapeToString(g.strides),
                      ir::shapeToString(g.dilations));
    if (!has_dilations && g.dilations[i] != 1)
      return ctx.fail("dilations [{}] are not supported by this op",
                      ir::shapeToString(g.dilations));
    if (g.pads[i] < 0 || g.pads[i + g.spatial] < 0)
      return ctx.fail("pads [{}] must be >= 0", ir::shapeToString(g.pads));
  }
  std::string auto_pad = a.getString("auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && auto_pad != "VALID" && auto_pad != "SAME_UPPER" &&
      auto_pad != "SAME_LOWER")
    return ctx.fail("auto_pad '{}' is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER", auto_pad);
  if (auto_pad == "VALID") {
    std::fill(g.pads.begin(), g.pads.end(), 0);
    g.ceil_mode = false;
  } else if (auto_pad != "NOTSET") {
    // SAME_*: output = ceil(in / stride); the padding that gives it, the odd pixel at the end
    // (SAME_UPPER) or at the beginning (SAME_LOWER).
    for (int64_t i = 0; i < g.spatial; ++i)
      samePads(x[2 + i], windowExtent(g.kernel[i], g.dilations[i]), g.strides[i],
               auto_pad == "SAME_UPPER", &g.pads[i], &g.pads[i + g.spatial]);
    g.ceil_mode = false;
  }
  a.set("kernel_shape", g.kernel);
  a.set("strides", g.strides);
  if (has_dilations) a.set("dilations", g.dilations);
  a.set("pads", g.pads);
  a.set("auto_pad", std::string("NOTSET"));
  a.set("ceil_mode", int64_t{g.ceil_mode ? 1 : 0});
  return g;
}

Result<ir::Shape> poolOutShape(InferContext& ctx, const PoolGeom& g) {
  const ir::Shape& x = ctx.shape(0);
  ir::Shape out = {x[0], x[1]};
  for (int64_t i = 0; i < g.spatial; ++i) {
    const int64_t ek = windowExtent(g.kernel[i], g.dilations[i]);
    const int64_t padded = x[2 + i] + g.pads[i] + g.pads[i + g.spatial];
    if (padded < ek)
      return ctx.fail("spatial dim {} ({} with padding) is smaller than the kernel extent {}", i,
                      padded, ek);
    // A window may not lie entirely in the padding (pads must be smaller than the kernel).
    if (g.pads[i] >= ek || g.pads[i + g.spatial] >= ek)
      return ctx.fail("pads [{}] must be smaller than the kernel extent {} in spatial dim {}",
                      ir::shapeToString(g.pads), ek, i);
    out.push_back(windowOutDim(x[2 + i], g.kernel[i], g.strides[i], g.dilations[i], g.pads[i],
                               g.pads[i + g.spatial], g.ceil_mode));
  }
  return out;
}

Status inferMaxPool(InferContext& ctx) {
  ASC_TRY(PoolGeom g, poolGeometry(ctx, true));
  int64_t order = ctx.attrs().getInt("storage_order", 0);
  if (order != 0 && order != 1)
    return ctx.fail("storage_order {} must be 0 (row major) or 1 (column major)", order);
  ASC_TRY(ir::Shape out, poolOutShape(ctx, g));
  ctx.setOutput(0, ctx.dtype(0), out);
  ctx.setOutput(1, ir::DType::I64, out);
  return Status::ok();
}

Status inferAveragePool(InferContext& ctx) {
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  ASC_TRY(PoolGeom g, poolGeometry(ctx, true));
  int64_t cip = ctx.attrs().getInt("count_include_pad", 0);
  if (cip != 0 && cip != 1) return ctx.fail("count_include_pad {} must be 0 or 1", cip);
  ctx.attrs().set("count_include_pad", cip);
  ASC_TRY(ir::Shape out, poolOutShape(ctx, g));
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

Status inferGlobalPool(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  if (x.size() < 3)
    return ctx.fail("input must have rank >= 3 (N, C, spatial...), it has rank {} [{}]", x.size(),
                    ir::shapeToString(x));
  ir::Shape out = x;
  std::fill(out.begin() + 2, out.end(), 1);
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

Status inferGlobalAveragePool(InferContext& ctx) {
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  return inferGlobalPool(ctx);
}

// LpPool-2+ (p an int; dilations and ceil_mode from 18) and GlobalLpPool, which becomes a
// window over every spatial dim.
Status checkP(InferContext& ctx) {
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  const int64_t p = ctx.attrs().getInt("p", 2);
  if (p < 1) return ctx.fail("p {} must be at least 1", p);
  ctx.attrs().set("p", p);
  return Status::ok();
}

Status inferLpPool(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkP(ctx));
  const auto dil = ctx.attrs().getInts("dilations", {});
  if (ctx.opset() < 18 && (ctx.attrs().getInt("ceil_mode", 0) != 0 ||
                           std::any_of(dil.begin(), dil.end(), [](int64_t v) { return v != 1; })))
    return ctx.fail("dilations and ceil_mode are LpPool-18's; the model uses opset {}",
                    ctx.opset());
  ASC_TRY(PoolGeom g, poolGeometry(ctx, true));
  ASC_TRY(ir::Shape out, poolOutShape(ctx, g));
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

Status inferGlobalLpPool(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkP(ctx));
  ASC_RETURN_IF_ERROR(inferGlobalPool(ctx));
  const ir::Shape& x = ctx.shape(0);
  ctx.attrs().set("kernel_shape", std::vector<int64_t>(x.begin() + 2, x.end()));
  return Status::ok();
}

int64_t poolFlops(const ir::Node& n) {
  int64_t k = ir::numElements(n.attrs.getInts("kernel_shape"));
  return n.outputs[0]->numel() * k;
}

int64_t globalPoolFlops(const ir::Node& n) { return n.inputs[0]->numel(); }

// MaxPoolV3 / AvgPoolV2 as CANN spells them: ksize and strides in data_format order, the IR's
// explicit pads as CALCULATED ones, ceil_mode; AvgPoolV2's exclusive is ONNX's
// count_include_pad inverted.
CannSpelling poolSpelling(const ir::Node& n) {
  CannSpelling c;
  const ir::Value* x = n.input(0);
  const size_t rank = x ? x->shape.size() : 4;
  const std::vector<int64_t> kernel = n.attrs.getInts("kernel_shape");
  const std::vector<int64_t> ones(kernel.size(), 1), zeros(2 * kernel.size(), 0);
  c.attrs = {{"ksize", cannSpatialList(kernel)},
             {"strides", cannSpatialList(n.attrs.getInts("strides", ones))},
             {"padding_mode", std::string("CALCULATED")},
             {"pads", cannPads(n.attrs.getInts("pads", zeros))},
             {"data_format", std::string(cannDataFormat(rank))},
             {"global_pooling", false},
             {"ceil_mode", n.attrs.getInt("ceil_mode", 0) != 0}};
  if (n.op_type == "AveragePool") {
    c.attrs.emplace_back("exclusive", n.attrs.getInt("count_include_pad", 0) == 0);
    c.attrs.emplace_back("divisor_override", int64_t{0});
  }
  return c;
}

}  // namespace

const OpDef& defMaxPool() {
  static const OpDef d =
      OpDef("MaxPool")
          .pooling(PoolKind::Max)
          .works5hd(FiveHd::Windowed)
          .kernel(createPoolKernel)
          .layout(poolLayout)
          .onnx(1)
          .cann("MaxPoolV3")
          .cannSpelling(poolSpelling)
          .outputs(1, 2)
          .inferShape(inferMaxPool)
          .flops(poolFlops)
          .summary("max pooling; pads/auto_pad, strides, dilations, ceil_mode; optional Indices");
  return d;
}

const OpDef& defAveragePool() {
  static const OpDef d =
      OpDef("AveragePool")
          .pooling(PoolKind::Average)
          .works5hd(FiveHd::Windowed)
          .kernel(createPoolKernel)
          .layout(poolLayout)
          .onnx(1)
          .cann("AvgPoolV2")
          .cannSpelling(poolSpelling)
          .inferShape(inferAveragePool)
          .flops(poolFlops)
          .summary("average pooling; pads/auto_pad, strides, ceil_mode, count_include_pad");
  return d;
}

const OpDef& defGlobalAveragePool() {
  static const OpDef d = OpDef("GlobalAveragePool")
                             .pooling(PoolKind::Average, true)
                             .works5hd(FiveHd::Windowed)
                             .kernel(createPoolKernel)
                             .layout(poolLayout)
                             .onnx(1)
                             .cann("GlobalAveragePool")
                             .inferShape(inferGlobalAveragePool)
                             .flops(globalPoolFlops)
                             .summary("mean over all spatial dims; output (N, C, 1, ..., 1)");
  return d;
}

const OpDef& defLpPool() {
  static const OpDef d =
      OpDef("LpPool")
          .pooling(PoolKind::Lp)
          .kernel(createPoolKernel)
          .layout(poolLayout)
          .onnx(2)  // p is a float attribute in LpPool-1: that form is not read
          .inferShape(inferLpPool)
          .flops(poolFlops)
          .summary(
              "(sum |x|^p over the window)^(1/p); pads/auto_pad, strides, dilations and "
              "ceil_mode (18)");
  return d;
}

const OpDef& defGlobalLpPool() {
  static const OpDef d = OpDef("GlobalLpPool")
                             .pooling(PoolKind::Lp, true)
                             .kernel(createPoolKernel)
                             .layout(poolLayout)
                             .onnx(2)
                             .inferShape(inferGlobalLpPool)
                             .flops(globalPoolFlops)
                             .summary("(sum |x|^p over all spatial dims)^(1/p)");
  return d;
}

const OpDef& defGlobalMaxPool() {
  static const OpDef d = OpDef("GlobalMaxPool")
                             .pooling(PoolKind::Max, true)
                             .works5hd(FiveHd::Windowed)
                             .kernel(createPoolKernel)
                             .layout(poolLayout)
                             .onnx(1)
                             .cann("GlobalMaxPool")
                             .inferShape(inferGlobalPool)
                             .flops(globalPoolFlops)
                             .summary("max over all spatial dims; output (N, C, 1, ..., 1)");
  return d;
}

}  // namespace asc::ops
