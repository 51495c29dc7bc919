// constant.cpp: the ops that make or pass values without looking at them: Constant (value or
// value_float(s)/value_int(s)), ConstantOfShape, Range (constant start, limit and delta), and
// Dropout (the identity at inference). Each folds on constant inputs.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "ops/op_util.h"
#include "shape_kernel.h"
#include "shape_util.h"

namespace asc::ops {
namespace {

using namespace shape_detail;

// Dropout is the identity at inference (training_mode false or absent), and with a ratio of 0
// whatever training_mode is (nothing is dropped and the scale 1 / (1 - 0) is 1): exporters write
// that for a module in train() mode whose dropout probability is 0.
Status canonDropout(InferContext& ctx) {
  const ir::Value* r = ctx.hasInput(1) ? ctx.constInput(1) : nullptr;
  const bool keeps_all = r && r->numel() == 1 && r->tensor().floatAt(0) == 0.0;
  if (ctx.hasInput(2) && !keeps_all) {
    const ir::Value* tm = ctx.constInput(2);
    if (tm && tm->numel() == 1 && tm->tensor().intAt(0) != 0)
      return ctx.unsupported(
          "training_mode is true with a ratio other than 0: training-mode Dropout is not "
          "supported, only inference or a ratio of 0 (the identity)");
    if (!tm)
      return ctx.unsupported(
          "training_mode is computed at run time; only inference (a constant "
          "false or no training_mode) is supported");
  }
  if (const ir::Value* ratio = ctx.constInput(1); ratio && ratio->numel() == 1)
    ctx.attrs().set("ratio", static_cast<float>(ratio->tensor().floatAt(0)));
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferDropout(InferContext& ctx) {
  ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
  // The mask is bool since opset 10, of the input's type before.
  ctx.setOutput(1, ctx.opset() >= 10 ? ir::DType::Bool : ctx.dtype(0), ctx.shape(0));
  return Status::ok();
}

Eval evalDropout(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  std::vector<ir::Tensor> outs{in[0]};
  if (n.outputs.size() > 1) {
    TensorBuilder mask(n.outputs[1]->dtype, in[0].shape);
    for (int64_t i = 0; i < in[0].numel(); ++i) mask.setInt(i, 1);
    outs.push_back(mask.finish());
  }
  return outs;
}

// --- Constant, ConstantOfShape ---------------------------------------------------------------

Status canonConstant(InferContext& ctx) {
  ir::Attrs& a = ctx.attrs();
  for (const char* unsupported : {"value_string", "value_strings", "sparse_value"})
    if (a.has(unsupported)) return ctx.fail("attribute '{}' is not supported", unsupported);
  if (a.getTensor("value")) return Status::ok();
  ir::Tensor t;
  if (const ir::AttrValue* v = a.find("value_float"); v && std::get_if<float>(v)) {
    float f = std::get<float>(*v);
    t = ir::Tensor{ir::DType::F32, {}, ir::Blob::copyOf(&f, sizeof f)};
  } else if (a.has("value_floats")) {
    std::vector<float> fs = a.getFloats("value_floats");
    t = ir::Tensor{ir::DType::F32,
                   {static_cast<int64_t>(fs.size())},
                   ir::Blob::copyOf(fs.data(), fs.size() * sizeof(float))};
  } else if (a.has("value_int")) {
    int64_t i = a.getInt("value_int", 0);
    t = makeInt64Tensor({i}, {});
  } else if (a.has("value_ints")) {
    std::vector<int64_t> is = a.getInts("value_ints");
    t = makeInt64Tensor(is, {static_cast<int64_t>(is.size())});
  } else {
    return ctx.fail("no value: expected attribute 'value' or value_float(s)/value_int(s)");
  }
  for (const char* k : {"value_float", "value_floats", "value_int", "value_ints"}) a.erase(k);
  a.set("value", t);
  return Status::ok();
}

Status inferConstant(InferContext& ctx) {
  const ir::Tensor* t = ctx.attrs().getTensor("value");
  if (!t) return ctx.fail("attribute 'value' is not a tensor");
  if (t->dtype == ir::DType::Undefined) return ctx.fail("'value' has an unsupported dtype");
  for (int64_t d : t->shape)
    if (d < 0) return ctx.fail("'value' has a negative dim [{}]", ir::shapeToString(t->shape));
  if (!t->data || t->data->size() != t->byteSize())
    return ctx.fail("'value' of shape [{}] {} holds {} bytes, expected {}",
                    ir::shapeToString(t->shape), ir::dtypeName(t->dtype),
                    t->data ? t->data->size() : 0, t->byteSize());
  ctx.setOutput(0, t->dtype, t->shape);
  return Status::ok();
}

Eval evalConstant(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  return one(*n.attrs.getTensor("value"));
}

Status inferConstantOfShape(InferContext& ctx) {
  const ir::Value* c = ctx.constInput(0);
  if (!c)
    return ctx.fail(
        "the shape (input 0) must be known at compile time (a constant); dynamic shapes are not "
        "supported");
  if (c->shape.size() != 1 || ir::isFloat(c->dtype))
    return ctx.fail("the shape (input 0) must be a 1-D integer tensor, it is {} [{}]",
                    ir::dtypeName(c->dtype), ir::shapeToString(c->shape));
  ir::Shape out = c->tensor().toInts();
  for (int64_t d : out)
    if (d < 0) return ctx.fail("shape [{}] has a negative dim", ir::shapeToString(out));
  ir::DType dt = ir::DType::F32;
  if (const ir::Tensor* v = ctx.attrs().getTensor("value")) {
    if (v->numel() != 1 || !v->data || v->data->size() != v->byteSize())
      return ctx.fail("'value' must hold exactly one element, it has shape [{}]",
                      ir::shapeToString(v->shape));
    dt = v->dtype;
  } else {
    float zero = 0;
    ctx.attrs().set("value", ir::Tensor{dt, {1}, ir::Blob::copyOf(&zero, sizeof zero)});
  }
  ctx.setOutput(0, dt, out);
  return Status::ok();
}

Eval evalConstantOfShape(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Tensor& v = *n.attrs.getTensor("value");
  TensorBuilder b(v.dtype, n.outputs[0]->shape);
  const size_t esz = ir::dtypeSize(v.dtype);
  for (size_t off = 0; off < b.bytes.size(); off += esz)
    std::memcpy(b.bytes.data() + off, v.data->data(), esz);
  return one(b.finish());
}

}  // namespace

const OpDef& defDropout() {
  static const OpDef d = OpDef("Dropout")
                             .kernel(createCopyKernel)
                             .nativeDtypes()
                             .onnx(1)
                             .inputs(1, 3)
                             .outputs(1, 2)
                             .canonicalize(canonDropout)
                             .inferShape(inferDropout)
                             .evalConst(evalDropout)
                             .summary("inference: identity (optional all-true mask)");
  return d;
}

const OpDef& defConstant() {
  static const OpDef d = OpDef("Constant")
                             .kernel(createConstKernel)
                             .nativeDtypes()
                             .onnx(1)
                             .cann("Const")
                             .inputs(0, 0)
                             .canonicalize(canonConstant)
                             .inferShape(inferConstant)
                             .evalConst(evalConstant)
                             .summary("a constant tensor (value or value_float(s)/value_int(s))");
  return d;
}

// Range (opset 11): start, limit and delta (scalars of one numeric type) must be constants (the
// output's length depends on them); the node folds to max(ceil((limit - start) / delta), 0)
// values start + i * delta.
Status inferRange(InferContext& ctx) {
  for (size_t i = 0; i < 3; ++i) {
    if (!ctx.constInput(i))
      return ctx.fail(
          "input {} ('{}') must be known at compile time (constant): the output's length depends "
          "on it",
          i, ctx.input(i).name);
    if (ctx.input(i).numel() != 1) return ctx.fail("input {} must be a scalar", i);
    if (ctx.dtype(i) != ctx.dtype(0)) return ctx.fail("inputs must share one dtype");
  }
  const double start = ctx.constInput(0)->tensor().floatAt(0);
  const double limit = ctx.constInput(1)->tensor().floatAt(0);
  const double delta = ctx.constInput(2)->tensor().floatAt(0);
  if (delta == 0) return ctx.fail("delta is 0");
  const int64_t n = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((limit - start) / delta)));
  ctx.setOutput(0, ctx.dtype(0), {n});
  return Status::ok();
}

Eval evalRange(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Value* o = n.outputs[0];
  TensorBuilder b(o->dtype, o->shape);
  if (ir::isFloat(o->dtype)) {
    const double start = in[0].floatAt(0), delta = in[2].floatAt(0);
    for (int64_t i = 0; i < o->shape[0]; ++i) b.setFloat(i, start + static_cast<double>(i) * delta);
  } else {
    const int64_t start = in[0].intAt(0), delta = in[2].intAt(0);
    for (int64_t i = 0; i < o->shape[0]; ++i) b.setInt(i, start + i * delta);
  }
  return one(b.finish());
}

const OpDef& defRange() {
  static const OpDef d = OpDef("Range")
                             .kernel(createConstKernel)
                             .nativeDtypes()
                             .onnx(11)
                             .inputs(3, 3)
                             .inferShape(inferRange)
                             .evalConst(evalRange)
                             .summary("start, start + delta, ... below limit; constant inputs");
  return d;
}

const OpDef& defConstantOfShape() {
  static const OpDef d =
      OpDef("ConstantOfShape")
          .kernel(createConstKernel)
          .nativeDtypes()
          .onnx(9)
          .cann("Fill")
          .inferShape(inferConstantOfShape)
          .evalConst(evalConstantOfShape)
          .summary("a tensor of a constant shape filled with `value` (default float 0)");
  return d;
}

}  // namespace asc::ops
