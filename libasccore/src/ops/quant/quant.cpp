// quant.cpp: linear quantization. QuantizeLinear (opset 10; per-axis since 13) gives
// saturate(round(x / scale) + zero_point) in the zero point's type (uint8 without one, int8, and
// from opset 19/21 uint16, int16, uint4, int4, or a float8 type, where x / scale + zero_point is
// rounded to the type with `saturate`); DequantizeLinear gives (x - zero_point) * scale as
// float32 from those types or int32;
// DynamicQuantizeLinear (11) derives a uint8 scale and zero point from the data's range and
// outputs them with the quantized data. Scale and zero point are a scalar or, with `axis`, one
// value per index of that axis. QuantizeLinear/DequantizeLinear fold on constants (weights of
// QDQ models). MatMulInteger and QLinearMatMul multiply uint8/int8 matrices with per-tensor
// zero points (and scales).
#include "ops/op_util.h"
#include "quant_kernel.h"

namespace asc::ops {
namespace {

// The types a quantized tensor may have: uint8, int8, and from opset 19/21 on the float8
// types, uint16, int16, uint4 and int4; DequantizeLinear also reads int32.
bool quantizedType(ir::DType t, bool dequantizing) {
  using DT = ir::DType;
  return t == DT::U8 || t == DT::I8 || t == DT::U16 || t == DT::I16 || ir::isInt4(t) ||
         ir::isFloat8(t) || (dequantizing && t == DT::I32);
}

// Checks scale (input 1) and zero point (input 2) against x and the axis (normalized into the
// attribute when they hold one value per index of it).
Status checkParams(InferContext& ctx) {
  if (ctx.dtype(1) != ir::DType::F32)
    return ctx.unsupported("scale of dtype {} is not supported (float32)",
                           ir::dtypeName(ctx.dtype(1)));
  const int64_t n = ctx.input(1).numel();
  const int64_t block = ctx.attrs().getInt("block_size", 0);
  if (block < 0) return ctx.fail("block_size {} must be >= 0", block);
  if (block > 0) {  // blocked (opset 21): scale has x's shape, ceil(x[axis] / block) along axis
    const int64_t raw = ctx.attrs().getInt("axis", 1);
    auto axis = normalizeAxis(raw, ctx.rank(0));
    if (!axis) return ctx.fail("axis {} is out of range for rank {}", raw, ctx.rank(0));
    ir::Shape want = ctx.shape(0);
    want[*axis] = (want[*axis] + block - 1) / block;
    if (ctx.shape(1) != want)
      return ctx.fail("scale [{}] must be [{}] for block_size {} along axis {}",
                      ir::shapeToString(ctx.shape(1)), ir::shapeToString(want), block, *axis);
    if (ctx.numInputs() > 2 && ctx.hasInput(2) && ctx.shape(2) != want)
      return ctx.fail("zero point [{}] must have the scale's shape [{}]",
                      ir::shapeToString(ctx.shape(2)), ir::shapeToString(want));
    ctx.attrs().set("axis", *axis);
    ctx.attrs().set("block_size", block);
    if (ctx.numInputs() > 2 && ctx.hasInput(2) && !quantizedType(ctx.dtype(2), true))
      return ctx.unsupported("zero point of dtype {} is not supported",
                             ir::dtypeName(ctx.dtype(2)));
    return Status::ok();
  }
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
    if (!quantizedType(z, true))
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
  // The output type: the zero point's, else output_dtype (opset 21), else uint8.
  const bool zp = ctx.numInputs() > 2 && ctx.hasInput(2);
  const int64_t od = ctx.attrs().getInt("output_dtype", 0);
  const ir::DType want = od ? ir::dtypeFromOnnx(static_cast<int>(od)) : ir::DType::Undefined;
  if (od && !quantizedType(want, false))
    return ctx.unsupported(
        "output_dtype {} is not supported (uint8, int8, uint16, int16, uint4, int4 or a float8 "
        "type)",
        od);
  if (od && zp && ctx.dtype(2) != want)
    return ctx.fail("output_dtype {} differs from the zero point's {}", ir::dtypeName(want),
                    ir::dtypeName(ctx.dtype(2)));
  const ir::DType t = zp ? ctx.dtype(2) : od ? want : ir::DType::U8;
  if (!quantizedType(t, false))
    return ctx.fail("QuantizeLinear's output cannot be {}", ir::dtypeName(t));
  const int64_t sat = ctx.attrs().getInt("saturate", 1);
  if (sat != 0 && sat != 1) return ctx.fail("saturate {} must be 0 or 1", sat);
  // precision (opset 23): the float type x / scale is computed in; 0 (the scale's type, float32
  // here) and float32 change nothing, float16 and bfloat16 round x, the scale and the quotient.
  const int64_t precision = ctx.attrs().getInt("precision", 0);
  if (precision != 0 && precision != 1 && precision != 10 && precision != 16)
    return ctx.unsupported(
        "precision {} is not supported (0, float32 = 1, float16 = 10 or bfloat16 = 16)", precision);
  ctx.setOutput(0, t, ctx.shape(0));
  return Status::ok();
}

Status inferDequantize(InferContext& ctx) {
  const ir::DType x = ctx.dtype(0);
  if (!quantizedType(x, true))
    return ctx.unsupported("input of dtype {} is not supported", ir::dtypeName(x));
  ASC_RETURN_IF_ERROR(checkParams(ctx));
  const int64_t od = ctx.attrs().getInt("output_dtype", 0);  // opset 23: the output's float type
  if (od != 0 && ir::dtypeFromOnnx(static_cast<int>(od)) != ir::DType::F32)
    return ctx.unsupported("output_dtype {} is not supported (float32 = 1)", od);
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
  const QuantSlots slot = quantSlots(n.attrs, x.shape, scale.numel());
  const ir::Value* o = n.outputs[0];
  TensorBuilder b(o->dtype, o->shape);
  const bool quantize = n.op_type == "QuantizeLinear";
  const bool saturate = n.attrs.getInt("saturate", 1) != 0;
  const int64_t precision = n.attrs.getInt("precision", 0);
  const ir::DType qt = quantize ? o->dtype : x.dtype;
  int64_t lo, hi;
  quantRange(qt, &lo, &hi);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int64_t s = slot(i);
    const float sc = static_cast<float>(scale.floatAt(s));
    if (ir::isFloat8(qt)) {
      const float zp = has_zp ? static_cast<float>(in[2].floatAt(s)) : 0.f;
      if (quantize) {
        const auto [v, vs] = inPrecision(static_cast<float>(x.floatAt(i)), sc, precision);
        b.as<uint8_t>()[i] = quantizeFloat8(v, vs, zp, qt, saturate);
      } else {
        b.setFloat(i, (static_cast<float>(x.floatAt(i)) - zp) * sc);
      }
      continue;
    }
    const int64_t zp = has_zp ? in[2].intAt(s) : 0;
    if (quantize) {
      const auto [v, vs] = inPrecision(static_cast<float>(x.floatAt(i)), sc, precision);
      b.setInt(i, quantizeValue(v, vs, zp, lo, hi));
    } else {
      b.setFloat(i, dequantizeValue(x.intAt(i), sc, zp));
    }
  }
  return std::vector<ir::Tensor>{b.finish()};
}

int64_t perElement(const ir::Node& n) { return n.inputs[0]->numel() * 2; }

// MatMulInteger (opset 10): A, B uint8/int8, optional scalar zero points -> int32.
// QLinearMatMul (10): a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp -> y_zp's type.
// numpy matmul shapes; only per-tensor (one-value) zero points and scales.
Status inferQuantMatMul(InferContext& ctx) {
  const bool q = ctx.node().op_type == "QLinearMatMul";
  const size_t ai = 0, bi = q ? 3 : 1;
  auto int8ish = [](ir::DType t) { return t == ir::DType::U8 || t == ir::DType::I8; };
  if (!int8ish(ctx.dtype(ai)) || !int8ish(ctx.dtype(bi)))
    return ctx.unsupported("inputs of dtype {} and {} are not supported (uint8/int8)",
                           ir::dtypeName(ctx.dtype(ai)), ir::dtypeName(ctx.dtype(bi)));
  for (size_t i = 0; i < ctx.numInputs(); ++i)
    if (i != ai && i != bi && ctx.hasInput(i) && ctx.input(i).numel() != 1)
      return ctx.unsupported("input {} holds {} values; per-tensor (one value) is supported", i,
                             ctx.input(i).numel());
  if (q)
    for (size_t i : {size_t{1}, size_t{4}, size_t{6}})
      if (ctx.dtype(i) != ir::DType::F32) return ctx.fail("scale {} must be float32", i);
  ir::Shape a = ctx.shape(ai), b = ctx.shape(bi);
  if (a.empty() || b.empty()) return ctx.fail("inputs must have rank >= 1");
  const bool a1 = a.size() == 1, b1 = b.size() == 1;
  if (a1) a.insert(a.begin(), 1);
  if (b1) b.push_back(1);
  if (a.back() != b[b.size() - 2])
    return ctx.fail("inner dims differ: [{}] x [{}]", ir::shapeToString(ctx.shape(ai)),
                    ir::shapeToString(ctx.shape(bi)));
  auto batch =
      broadcastShapes(ir::Shape(a.begin(), a.end() - 2), ir::Shape(b.begin(), b.end() - 2));
  if (!batch) return ctx.fail("batch dims do not broadcast");
  ir::Shape out = *batch;
  if (!a1) out.push_back(a[a.size() - 2]);
  if (!b1) out.push_back(b.back());
  ir::DType t = ir::DType::I32;
  if (q) t = ctx.numInputs() > 7 && ctx.hasInput(7) ? ctx.dtype(7) : ir::DType::U8;
  ctx.setOutput(0, t, out);
  return Status::ok();
}

}  // namespace

const OpDef& defMatMulInteger() {
  static const OpDef d = OpDef("MatMulInteger")
                             .kernel(createQuantMatMulKernel)
                             .onnx(10)
                             .inputs(2, 4)
                             .inferShape(inferQuantMatMul)
                             .flops([](const ir::Node& n) { return n.outputs[0]->numel() * 2; })
                             .summary("(A - a_zero_point) x (B - b_zero_point) in int32");
  return d;
}

const OpDef& defQLinearMatMul() {
  static const OpDef d = OpDef("QLinearMatMul")
                             .kernel(createQuantMatMulKernel)
                             .onnx(10)
                             .inputs(8, 8)
                             .inferShape(inferQuantMatMul)
                             .flops([](const ir::Node& n) { return n.outputs[0]->numel() * 2; })
                             .summary(
                                 "quantized matmul: the int product rescaled by "
                                 "a_scale * b_scale / y_scale plus y_zero_point");
  return d;
}

const OpDef& defQuantizeLinear() {
  static const OpDef d = OpDef("QuantizeLinear")
                             .kernel(createQuantKernel)
                             .onnx(10)
                             .cann("AscendQuant")
                             .inputs(2, 3)
                             .narrowTypes()
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
          .narrowTypes()
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
