// quant.cpp: linear quantization. QuantizeLinear (opset 10; per-axis since 13) gives
// saturate(round(x / scale) + zero_point) in the zero point's type (uint8 without one, or int8);
// DequantizeLinear gives (x - zero_point) * scale as float32 from uint8/int8/int32;
// DynamicQuantizeLinear (11) derives a uint8 scale and zero point from the data's range and
// outputs them with the quantized data. Scale and zero point are a scalar or, with `axis`, one
// value per index of that axis. QuantizeLinear/DequantizeLinear fold on constants (weights of
// QDQ models).
#include "../op_util.h"
#include "quant_kernel.h"

namespace asc::ops {
namespace {

// Checks scale (input 1) and zero point (input 2) against x and the axis (normalized into the
// attribute when they hold one value per index of it).
Status checkParams(InferContext& ctx) {
  if (ctx.dtype(1) != ir::DType::F32)
    return ctx.unsupported("scale of dtype {} is not supported (float32)",
                           ir::dtypeName(ctx.dtype(1)));
  const int64_t n = ctx.input(1).numel();
  if (ctx.rank(1) > 1) return ctx.fail("scale must be a scalar or 1-D");
  if (n > 1 || ctx.rank(1) == 1) {
    const int64_t raw = ctx.attrs().getInt("axis", 1);
    auto axis = normalizeAxis(raw, ctx.rank(0));
    if (!axis) return ctx.fail("axis {} is out of range for rank {}", raw, ctx.rank(0));
    if (ctx.shape(0)[*axis] != n)
      return ctx.fail("scale has {} values, axis {} has {}", n, *axis, ctx.shape(0)[*axis]);
    ctx.attrs().set("axis", *axis);
  }
  if (ctx.numInputs() > 2 && ctx.hasInput(2)) {
    const ir::DType z = ctx.dtype(2);
    if (z != ir::DType::U8 && z != ir::DType::I8 && z != ir::DType::I32)
      return ctx.unsupported("zero point of dtype {} is not supported", ir::dtypeName(z));
    if (ctx.input(2).numel() != n)
      return ctx.fail("zero point has {} values, scale {}", ctx.input(2).numel(), n);
  }
  return Status::ok();
}

Status inferQuantize(InferContext& ctx) {
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  ASC_RETURN_IF_ERROR(checkParams(ctx));
  const ir::DType t = ctx.numInputs() > 2 && ctx.hasInput(2) ? ctx.dtype(2) : ir::DType::U8;
  if (t == ir::DType::I32) return ctx.fail("QuantizeLinear output must be uint8 or int8");
  ctx.setOutput(0, t, ctx.shape(0));
  return Status::ok();
}

Status inferDequantize(InferContext& ctx) {
  const ir::DType x = ctx.dtype(0);
  if (x != ir::DType::U8 && x != ir::DType::I8 && x != ir::DType::I32)
    return ctx.unsupported("input of dtype {} is not supported", ir::dtypeName(x));
  ASC_RETURN_IF_ERROR(checkParams(ctx));
  if (ctx.numInputs() > 2 && ctx.hasInput(2) && ctx.dtype(2) != x)
    return ctx.fail("zero point dtype {} differs from the input's {}", ir::dtypeName(ctx.dtype(2)),
                    ir::dtypeName(x));
  ctx.setOutput(0, ir::DType::F32, ctx.shape(0));
  return Status::ok();
}

Status inferDynamicQuantize(InferContext& ctx) {
  if (ctx.dtype(0) != ir::DType::F32)
    return ctx.fail("input dtype {} is not float32", ir::dtypeName(ctx.dtype(0)));
  ctx.setOutput(0, ir::DType::U8, ctx.shape(0));
  if (ctx.node().outputs.size() > 1 && ctx.node().outputs[1]) ctx.setOutput(1, ir::DType::F32, {});
  if (ctx.node().outputs.size() > 2 && ctx.node().outputs[2]) ctx.setOutput(2, ir::DType::U8, {});
  return Status::ok();
}

Result<std::vector<ir::Tensor>> evalQuant(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Tensor& x = in[0];
  const ir::Tensor& scale = in[1];
  const bool has_zp = in.size() > 2 && in[2].data;
  int64_t dim = 1, inner = 1;
  if (scale.numel() > 1) {
    const int64_t axis = n.attrs.getInt("axis", 1);
    dim = x.shape[axis];
    for (size_t d = axis + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
  }
  const ir::Value* o = n.outputs[0];
  TensorBuilder b(o->dtype, o->shape);
  const bool quantize = n.op_type == "QuantizeLinear";
  const int64_t lo = o->dtype == ir::DType::I8 ? -128 : 0,
                hi = o->dtype == ir::DType::I8 ? 127 : 255;
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int64_t s = dim > 1 ? (i / inner) % dim : 0;
    const float sc = static_cast<float>(scale.floatAt(s));
    const int64_t zp = has_zp ? in[2].intAt(s) : 0;
    if (quantize)
      b.setInt(i, quantizeValue(static_cast<float>(x.floatAt(i)), sc, zp, lo, hi));
    else
      b.setFloat(i, dequantizeValue(x.intAt(i), sc, zp));
  }
  return std::vector<ir::Tensor>{b.finish()};
}

int64_t perElement(const ir::Node& n) { return n.inputs[0]->numel() * 2; }

}  // namespace

const OpDef& defQuantizeLinear() {
  static const OpDef d = OpDef("QuantizeLinear")
                             .kernel(createQuantKernel)
                             .onnx(10)
                             .cann("AscendQuant")
                             .inputs(2, 3)
                             .inferShape(inferQuantize)
                             .evalConst(evalQuant)
                             .flops(perElement)
                             .summary(
                                 "saturate(round(x / scale) + zero_point) as uint8/int8; "
                                 "per tensor or per axis");
  return d;
}

const OpDef& defDequantizeLinear() {
  static const OpDef d =
      OpDef("DequantizeLinear")
          .kernel(createQuantKernel)
          .onnx(10)
          .cann("AscendDequant")
          .inputs(2, 3)
          .inferShape(inferDequantize)
          .evalConst(evalQuant)
          .flops(perElement)
          .summary("(x - zero_point) * scale as float32; per tensor or per axis");
  return d;
}

const OpDef& defDynamicQuantizeLinear() {
  static const OpDef d = OpDef("DynamicQuantizeLinear")
                             .kernel(createQuantKernel)
                             .onnx(11)
                             .outputs(1, 3)
                             .inferShape(inferDynamicQuantize)
                             .flops(perElement)
                             .summary(
                                 "uint8 quantization with scale and zero point from the "
                                 "data's range (outputs y, y_scale, y_zero_point)");
  return d;
}

}  // namespace asc::ops
