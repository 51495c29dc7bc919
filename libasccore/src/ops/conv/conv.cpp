// conv.cpp: Conv (-> CANN Conv2D) and ConvTranspose (-> Conv2DTransposeD). N-d spatial,
// groups, dilations, strides, explicit pads or auto_pad (SAME_UPPER/SAME_LOWER/VALID); and the
// integer ConvInteger and QLinearConv (1 to 3 spatial dims, a loop).
#include "ops/op_util.h"
#include "conv_kernel.h"

namespace asc::ops {
namespace {

struct ConvGeom {
  int64_t spatial;
  std::vector<int64_t> kernel, strides, dilations, pads;  // pads: begins then ends
};

// wi: the weight's input index (3 for QLinearConv).
Result<ConvGeom> convGeometry(InferContext& ctx, bool transpose, size_t wi = 1) {
  const ir::Shape& x = ctx.shape(0);
  const ir::Shape& w = ctx.shape(wi);
  if (x.size() < 3)
    return ctx.fail("input must have rank >= 3 (N, C, spatial...), it has {}", x.size());
  if (w.size() != x.size())
    return ctx.fail("weight rank {} differs from input rank {}", w.size(), x.size());
  ConvGeom g;
  g.spatial = static_cast<int64_t>(x.size()) - 2;
  g.kernel = ctx.attrs().getInts("kernel_shape", ir::Shape(w.begin() + 2, w.end()));
  g.strides = ctx.attrs().getInts("strides", std::vector<int64_t>(g.spatial, 1));
  g.dilations = ctx.attrs().getInts("dilations", std::vector<int64_t>(g.spatial, 1));
  g.pads = ctx.attrs().getInts("pads", std::vector<int64_t>(2 * g.spatial, 0));
  if (static_cast<int64_t>(g.kernel.size()) != g.spatial ||
      static_cast<int64_t>(g.strides.size()) != g.spatial ||
      static_cast<int64_t>(g.dilations.size()) != g.spatial ||
      static_cast<int64_t>(g.pads.size()) != 2 * g.spatial)
    return ctx.fail("kernel_shape/strides/dilations/pads do not match {} spatial dims", g.spatial);
  for (int64_t i = 0; i < g.spatial; ++i) {
    if (g.kernel[i] != w[2 + i])
      return ctx.fail("kernel_shape [{}] does not match the weight shape [{}]",
                      ir::shapeToString(g.kernel), ir::shapeToString(w));
    if (g.strides[i] <= 0 || g.dilations[i] <= 0 || g.kernel[i] <= 0)
      return ctx.fail("strides, dilations and kernel dims must be positive");
    if (g.pads[i] < 0 || g.pads[i + g.spatial] < 0) return ctx.fail("pads must be >= 0");
  }
  std::string auto_pad = ctx.attrs().getString("auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && auto_pad != "VALID" && auto_pad != "SAME_UPPER" &&
      auto_pad != "SAME_LOWER")
    return ctx.fail("auto_pad '{}' is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER", auto_pad);
  if (auto_pad == "VALID") {
    std::fill(g.pads.begin(), g.pads.end(), 0);
  } else if (auto_pad != "NOTSET") {
    // Resolve SAME_* into explicit pads so later stages see one form.
    for (int64_t i = 0; i < g.spatial; ++i) {
      const int64_t in = x[2 + i];
      const int64_t ek = windowExtent(g.kernel[i], g.dilations[i]);
      const bool upper = auto_pad == "SAME_UPPER";
      if (!transpose) {
        samePads(in, ek, g.strides[i], upper, &g.pads[i], &g.pads[i + g.spatial]);
        continue;
      }
      auto op = ctx.attrs().getInts("output_padding", std::vector<int64_t>(g.spatial, 0));
      const int64_t total =
          std::max<int64_t>(0, g.strides[i] * (in - 1) + op[i] + ek - in * g.strides[i]);
      const int64_t small = total / 2, big = total - small;
      g.pads[i] = upper ? small : big;
      g.pads[i + g.spatial] = upper ? big : small;
    }
  }
  ctx.attrs().set("pads", g.pads);
  ctx.attrs().set("auto_pad", std::string("NOTSET"));
  ctx.attrs().set("kernel_shape", g.kernel);
  ctx.attrs().set("strides", g.strides);
  ctx.attrs().set("dilations", g.dilations);
  return g;
}

Status inferConv(InferContext& ctx) {
  ASC_TRY(ConvGeom g, convGeometry(ctx, false));
  const ir::Shape& x = ctx.shape(0);
  const ir::Shape& w = ctx.shape(1);
  int64_t group = ctx.attrs().getInt("group", 1);
  if (group <= 0 || x[1] % group != 0 || w[0] % group != 0)
    return ctx.fail("group {} does not divide input channels {} and output channels {}", group,
                    x[1], w[0]);
  if (w[1] * group != x[1])
    return ctx.fail(
        "weight [{}] expects {} input channels per group, the input has {} in {} "
        "groups",
        ir::shapeToString(w), w[1], x[1], group);
  if (ctx.hasInput(2) && (ctx.shape(2).size() != 1 || ctx.shape(2)[0] != w[0]))
    return ctx.fail("bias shape [{}] should be [{}]", ir::shapeToString(ctx.shape(2)), w[0]);
  ir::Shape out = {x[0], w[0]};
  for (int64_t i = 0; i < g.spatial; ++i) {
    const int64_t ek = windowExtent(g.kernel[i], g.dilations[i]);
    const int64_t padded = x[2 + i] + g.pads[i] + g.pads[i + g.spatial];
    if (padded < ek)
      return ctx.fail("spatial dim {} ({} with padding) is smaller than the kernel extent {}", i,
                      padded, ek);
    out.push_back(windowOutDim(x[2 + i], g.kernel[i], g.strides[i], g.dilations[i], g.pads[i],
                               g.pads[i + g.spatial]));
  }
  ctx.attrs().set("group", group);
  // A residual fused by the fuse-conv-add pass is added to the output before the activation.
  if (ctx.numInputs() > 3 && ctx.hasInput(3) && ctx.shape(3) != out)
    return ctx.fail("fused residual input has shape [{}], the output is [{}]",
                    ir::shapeToString(ctx.shape(3)), ir::shapeToString(out));
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

// ConvInteger (opset 10): uint8/int8 x and w less their (per-tensor) zero points (inputs 2 and
// 3, read at run time), convolved into int32; 1 to 3 spatial dims.
// QLinearConv (10): x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point,
// B: the same integer convolution plus the int32 bias B, rescaled by x_scale * w_scale / y_scale,
// rounded half to even and saturated to y_zero_point's type. w_scale and w_zero_point hold one
// value or one per output channel; the other parameters one value.
Status inferIntegerConv(InferContext& ctx) {
  const bool q = ctx.node().op_type == "QLinearConv";
  const size_t wi = q ? 3 : 1;
  auto int8ish = [](ir::DType t) { return t == ir::DType::U8 || t == ir::DType::I8; };
  if (!int8ish(ctx.dtype(0)) || !int8ish(ctx.dtype(wi)))
    return ctx.unsupported("x/w of dtype {}/{} are not supported (uint8/int8)",
                           ir::dtypeName(ctx.dtype(0)), ir::dtypeName(ctx.dtype(wi)));
  if (ctx.rank(0) < 3 || ctx.rank(0) > 5)
    return ctx.unsupported("{} with {} spatial dims (1 to 3 are supported)", ctx.node().op_type,
                           ctx.rank(0) - 2);
  const int64_t out_ch = ctx.rank(wi) > 0 ? ctx.shape(wi)[0] : 0;
  for (size_t i = q ? 1 : 2; i < (q ? 8 : 4) && i < ctx.numInputs(); ++i) {
    if (i == wi || !ctx.hasInput(i)) continue;
    const int64_t n = ctx.input(i).numel();
    const bool per_channel_ok = q && (i == 4 || i == 5);
    if (n != 1 && !(per_channel_ok && n == out_ch && ctx.rank(i) == 1))
      return ctx.unsupported(
          "input {} holds {} values; {} supported", i, n,
          per_channel_ok ? "one or one per output channel is" : "per-tensor (one value) is");
    if (q && (i == 1 || i == 4 || i == 6) && ctx.dtype(i) != ir::DType::F32)
      return ctx.fail("scale input {} must be float32, it is {}", i, ir::dtypeName(ctx.dtype(i)));
  }
  if (q && ctx.numInputs() > 8 && ctx.hasInput(8) &&
      (ctx.dtype(8) != ir::DType::I32 || ctx.input(8).numel() != out_ch))
    return ctx.fail("bias must be int32 with {} values, it is {} [{}]", out_ch,
                    ir::dtypeName(ctx.dtype(8)), ir::shapeToString(ctx.shape(8)));
  ASC_TRY(ConvGeom g, convGeometry(ctx, false, wi));
  const ir::Shape& x = ctx.shape(0);
  const ir::Shape& w = ctx.shape(wi);
  const int64_t group = ctx.attrs().getInt("group", 1);
  if (group <= 0 || x[1] % group != 0 || w[0] % group != 0 || w[1] * group != x[1])
    return ctx.fail("group {} does not fit input channels {} and weight [{}]", group, x[1],
                    ir::shapeToString(w));
  ir::Shape out = {x[0], w[0]};
  for (int64_t i = 0; i < g.spatial; ++i) {
    const int64_t ek = windowExtent(g.kernel[i], g.dilations[i]);
    const int64_t padded = x[2 + i] + g.pads[i] + g.pads[i + g.spatial];
    if (padded < ek) return ctx.fail("spatial dim {} is smaller than the kernel extent", i);
    out.push_back((padded - ek) / g.strides[i] + 1);
  }
  ctx.attrs().set("group", group);
  ir::DType t = ir::DType::I32;
  if (q) t = ctx.numInputs() > 7 && ctx.hasInput(7) ? ctx.dtype(7) : ir::DType::U8;
  if (q && !int8ish(t))
    return ctx.fail("y_zero_point must be uint8 or int8, it is {}", ir::dtypeName(t));
  ctx.setOutput(0, t, out);
  return Status::ok();
}

int64_t integerConvFlops(const ir::Node& n) {
  const ir::Shape& w = n.inputs[n.op_type == "QLinearConv" ? 3 : 1]->shape;
  return 2 * n.outputs[0]->numel() * ir::numElements(ir::Shape(w.begin() + 1, w.end()));
}

Status inferConvTranspose(InferContext& ctx) {
  ASC_TRY(ConvGeom g, convGeometry(ctx, true));
  const ir::Shape& x = ctx.shape(0);
  const ir::Shape& w = ctx.shape(1);
  int64_t group = ctx.attrs().getInt("group", 1);
  if (group <= 0 || x[1] % group != 0)
    return ctx.fail("group {} does not divide channels {}", group, x[1]);
  if (w[0] != x[1])
    return ctx.fail("weight [{}] expects {} input channels, the input has {}", ir::shapeToString(w),
                    w[0], x[1]);
  int64_t cout = w[1] * group;
  if (ctx.hasInput(2) && (ctx.shape(2).size() != 1 || ctx.shape(2)[0] != cout))
    return ctx.fail("bias shape [{}] should be [{}]", ir::shapeToString(ctx.shape(2)), cout);
  auto op = ctx.attrs().getInts("output_padding", std::vector<int64_t>(g.spatial, 0));
  if (static_cast<int64_t>(op.size()) != g.spatial)
    return ctx.fail("output_padding has the wrong length");
  ir::Shape out = {x[0], cout};
  auto output_shape = ctx.attrs().getInts("output_shape");
  for (int64_t i = 0; i < g.spatial; ++i) {
    int64_t ek = windowExtent(g.kernel[i], g.dilations[i]);
    int64_t o = g.strides[i] * (x[2 + i] - 1) + op[i] + ek - g.pads[i] - g.pads[i + g.spatial];
    if (!output_shape.empty()) {
      // output_shape wins: derive the pads from it (SAME_UPPER style split).
      int64_t want = output_shape[output_shape.size() - g.spatial + i];
      int64_t total = g.strides[i] * (x[2 + i] - 1) + op[i] + ek - want;
      if (total < 0) {
        // A larger output than the transposed convolution gives: the extra rows come at the
        // end (as ONNX Runtime and the node tests have it), which is what output_padding adds.
        g.pads[i] = g.pads[i + g.spatial] = 0;
        op[i] -= total;
      } else {
        g.pads[i] = total / 2;
        g.pads[i + g.spatial] = total - total / 2;
      }
      o = want;
    }
    if (o <= 0) return ctx.fail("output spatial dim {} would be {}", i, o);
    out.push_back(o);
  }
  ctx.attrs().erase("output_shape");
  ctx.attrs().set("pads", g.pads);
  ctx.attrs().set("output_padding", op);
  ctx.attrs().set("group", group);
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

int64_t convFlops(const ir::Node& n) {
  const ir::Shape& w = n.inputs[1]->shape;
  int64_t per_out = 2 * ir::numElements(ir::Shape(w.begin() + 1, w.end()));
  return n.outputs[0]->numel() * per_out;
}

int64_t convTransposeFlops(const ir::Node& n) {
  // Every input element scatters into Cout/group * kernel outputs.
  const ir::Shape& w = n.inputs[1]->shape;
  return 2 * n.inputs[0]->numel() * ir::numElements(ir::Shape(w.begin() + 1, w.end()));
}

// Conv2D / Conv3D as CANN spells them: strides, dilations and pads in data_format order, groups,
// data_format, offset_x (the IR's explicit pads after shape inference).
CannSpelling convSpelling(const ir::Node& n) {
  CannSpelling c;
  const ir::Value* x = n.input(0);
  const size_t rank = x ? x->shape.size() : 4;
  if (rank == 5) c.type = "Conv3D";
  const size_t spatial = rank >= 2 ? rank - 2 : 2;
  const std::vector<int64_t> ones(spatial, 1), zeros(2 * spatial, 0);
  c.attrs = {{"strides", cannSpatialList(n.attrs.getInts("strides", ones))},
             {"pads", cannPads(n.attrs.getInts("pads", zeros))},
             {"dilations", cannSpatialList(n.attrs.getInts("dilations", ones))},
             {"groups", n.attrs.getInt("group", 1)},
             {"data_format", std::string(cannDataFormat(rank))},
             {"offset_x", int64_t{0}}};
  return c;
}

CannSpelling convTransposeSpelling(const ir::Node& n) {
  CannSpelling c = convSpelling(n);
  if (c.type == "Conv3D") c.type = "Conv3DTransposeD";
  const ir::Value* y = n.outputs.empty() ? nullptr : n.outputs[0];
  const size_t spatial = y && y->shape.size() >= 2 ? y->shape.size() - 2 : 2;
  if (y) c.attrs.insert(c.attrs.begin(), {"input_size", std::vector<int64_t>(y->shape)});
  c.attrs.emplace_back("output_padding", cannSpatialList(n.attrs.getInts(
                                             "output_padding", std::vector<int64_t>(spatial, 0))));
  return c;
}

}  // namespace

const OpDef& defConv() {
  static const OpDef d =
      OpDef("Conv")
          .works5hd(FiveHd::Windowed)
          .takesActivations(ActivationPostOps::Any)
          .cube()
          .accumulatesInto(3)
          .onnx(1)
          .cann("Conv2D")
          .cannSpelling(convSpelling)
          .inputs(2, 4)
          .inferShape(inferConv)
          .flops(convFlops)
          .kernel(createConvKernel)
          .layout(convLayout)
          .summary(
              "N-d convolution with groups, dilations, pads/auto_pad, optional bias; fused "
              "activation and residual (oneDNN)");
  return d;
}

const OpDef& defConvTranspose() {
  static const OpDef d =
      OpDef("ConvTranspose")
          .works5hd(FiveHd::Windowed)
          .takesActivations(ActivationPostOps::Any)
          .cube()
          .onnx(1)
          .cann("Conv2DTransposeD")
          .cannSpelling(convTransposeSpelling)
          .inputs(2, 3)
          .inferShape(inferConvTranspose)
          .flops(convTransposeFlops)
          .kernel(createConvTransposeKernel)
          .layout(convLayout)
          .summary("transposed convolution; output_shape/output_padding resolved into pads");
  return d;
}

const OpDef& defConvInteger() {
  static const OpDef d = OpDef("ConvInteger")
                             .kernel(createConvIntegerKernel)
                             .onnx(10)
                             .inputs(2, 4)
                             .inferShape(inferIntegerConv)
                             .flops(integerConvFlops)
                             .summary(
                                 "convolution (1-3 spatial dims) of (x - x_zero_point) and (w - "
                                 "w_zero_point) in int32");
  return d;
}

const OpDef& defQLinearConv() {
  static const OpDef d =
      OpDef("QLinearConv")
          .kernel(createConvIntegerKernel)
          .onnx(10)
          .inputs(8, 9)
          .inferShape(inferIntegerConv)
          .flops(integerConvFlops)
          .summary(
              "quantized convolution (1-3 spatial dims): the int32 ConvInteger sum plus bias, "
              "rescaled by "
              "x_scale * w_scale / y_scale plus y_zero_point; per-channel w_scale/w_zero_point");
  return d;
}

}  // namespace asc::ops
