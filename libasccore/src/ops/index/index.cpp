// index.cpp: element-wise and tuple indexing: GatherElements (-> CANN GatherElements),
// ScatterElements (-> ScatterElements) and its opset 9 form Scatter, GatherND (-> GatherNd) and
// ScatterND (-> ScatterNd), and OneHot. Indices are int32 or int64 and may be negative; the
// scatters take reduction none/add/mul (opset 16) and max/min (18). Data of every dtype moves as
// bytes (nativeDtypes); the reductions need a numeric type other than fp16/bf16. All fold on
// constants through the kernels' own walk (index_core.h).
#include "ops/op_util.h"
#include "index_kernel.h"

namespace asc::ops {
namespace {

Status checkIndices(InferContext& ctx, size_t i) {
  if (ctx.dtype(i) != ir::DType::I64 && ctx.dtype(i) != ir::DType::I32)
    return ctx.fail("indices have dtype {}, expected int32 or int64", ir::dtypeName(ctx.dtype(i)));
  return Status::ok();
}

Result<int64_t> elementAxis(InferContext& ctx) {
  const int64_t raw = ctx.attrs().getInt("axis", 0);
  auto axis = normalizeAxis(raw, ctx.rank(0));
  if (!axis) return ctx.fail("axis {} is out of range for data of rank {}", raw, ctx.rank(0));
  if (ctx.rank(1) != ctx.rank(0))
    return ctx.fail("indices have rank {}, data rank {}; they must match", ctx.rank(1),
                    ctx.rank(0));
  if (const ir::Value* c = ctx.constInput(1)) {
    const ir::Tensor t = c->tensor();
    const int64_t dim = ctx.shape(0)[*axis];
    for (int64_t i = 0; i < t.numel(); ++i)
      if (t.intAt(i) < -dim || t.intAt(i) >= dim)
        return ctx.fail("index {} is out of range for axis {} of size {}", t.intAt(i), *axis, dim);
  }
  ctx.attrs().set("axis", *axis);
  return *axis;
}

Status checkReduction(InferContext& ctx) {
  const std::string r = ctx.attrs().getString("reduction", "none");
  if (r != "none" && r != "add" && r != "mul" && r != "max" && r != "min")
    return ctx.fail("reduction '{}' must be none, add, mul, max or min", r);
  const ir::DType t = ctx.dtype(0);
  if (r != "none" && (t == ir::DType::F16 || t == ir::DType::BF16 || t == ir::DType::Bool))
    return ctx.unsupported("reduction '{}' on {} data is not supported", r, ir::dtypeName(t));
  if (ctx.dtype(2) != ctx.dtype(0))
    return ctx.fail("updates have dtype {}, data {}; they must match", ir::dtypeName(ctx.dtype(2)),
                    ir::dtypeName(ctx.dtype(0)));
  return Status::ok();
}

Status inferGatherElements(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkIndices(ctx, 1));
  ASC_TRY(int64_t axis, elementAxis(ctx));
  for (int64_t d = 0; d < ctx.rank(0); ++d)
    if (d != axis && ctx.shape(1)[d] > ctx.shape(0)[d])
      return ctx.fail("indices dim {} ({}) exceeds the data's ({})", d, ctx.shape(1)[d],
                      ctx.shape(0)[d]);
  ctx.setOutput(0, ctx.dtype(0), ctx.shape(1));
  return Status::ok();
}

Status inferScatterElements(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkIndices(ctx, 1));
  ASC_RETURN_IF_ERROR(checkReduction(ctx));
  ASC_TRY(int64_t axis, elementAxis(ctx));
  if (ctx.shape(2) != ctx.shape(1))
    return ctx.fail("updates have shape [{}], indices [{}]; they must match",
                    ir::shapeToString(ctx.shape(2)), ir::shapeToString(ctx.shape(1)));
  for (int64_t d = 0; d < ctx.rank(0); ++d)
    if (d != axis && ctx.shape(1)[d] > ctx.shape(0)[d])
      return ctx.fail("indices dim {} ({}) exceeds the data's ({})", d, ctx.shape(1)[d],
                      ctx.shape(0)[d]);
  ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
  return Status::ok();
}

// The tuple length k of GatherND/ScatterND indices, checked against data's rank past batch_dims.
Result<int64_t> tupleLength(InferContext& ctx, int64_t b) {
  const ir::Shape& is = ctx.shape(1);
  if (is.empty()) return ctx.fail("indices must have rank >= 1");
  const int64_t k = is.back();
  if (k < 1 || b + k > ctx.rank(0))
    return ctx.fail("index tuples of length {} do not fit data of rank {} (batch_dims {})", k,
                    ctx.rank(0), b);
  for (int64_t d = 0; d < b; ++d)
    if (is[d] != ctx.shape(0)[d])
      return ctx.fail("batch dim {} differs: indices {}, data {}", d, is[d], ctx.shape(0)[d]);
  return k;
}

Status inferGatherND(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkIndices(ctx, 1));
  const int64_t b = ctx.attrs().getInt("batch_dims", 0);
  if (b < 0 || b >= std::min(ctx.rank(0), ctx.rank(1)))
    return ctx.fail("batch_dims {} must be below both ranks", b);
  ASC_TRY(int64_t k, tupleLength(ctx, b));
  const ir::Shape& is = ctx.shape(1);
  ir::Shape out(is.begin(), is.end() - 1);
  out.insert(out.end(), ctx.shape(0).begin() + b + k, ctx.shape(0).end());
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

Status inferScatterND(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkIndices(ctx, 1));
  ASC_RETURN_IF_ERROR(checkReduction(ctx));
  ASC_TRY(int64_t k, tupleLength(ctx, 0));
  const ir::Shape& is = ctx.shape(1);
  ir::Shape want(is.begin(), is.end() - 1);
  want.insert(want.end(), ctx.shape(0).begin() + k, ctx.shape(0).end());
  if (ctx.shape(2) != want)
    return ctx.fail("updates have shape [{}], expected [{}]", ir::shapeToString(ctx.shape(2)),
                    ir::shapeToString(want));
  ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
  return Status::ok();
}

Result<std::vector<ir::Tensor>> evalIndex(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Value* o = n.outputs[0];
  TensorBuilder b(o->dtype, o->shape);
  const auto* data = static_cast<const uint8_t*>(in[0].data->data());
  const auto* upd =
      in.size() > 2 && in[2].data ? static_cast<const uint8_t*>(in[2].data->data()) : nullptr;
  runIndexOp(n, in[0].dtype, in[0].shape, data, in[1].shape, in[1].data->data(),
             in[1].dtype == ir::DType::I64, upd, b.bytes.data());
  return std::vector<ir::Tensor>{b.finish()};
}

// OneHot (opset 9/11): depth (input 1) must be a constant (it is a dim of the output); values
// (input 2, [off, on]) may be a run-time input. The new axis (attribute, default -1) is
// normalized into the attribute; so is the depth.
Status inferOneHot(InferContext& ctx) {
  const ir::Value* dv = ctx.constInput(1);
  if (!dv)
    return ctx.fail(
        "depth (input 1) must be known at compile time (constant): it is a dim of the output");
  if (dv->numel() != 1) return ctx.fail("depth must hold one value");
  const int64_t depth = static_cast<int64_t>(dv->tensor().floatAt(0));
  if (depth <= 0) return ctx.fail("depth {} must be positive", depth);
  if (ctx.input(2).numel() != 2) return ctx.fail("values must hold 2 elements [off, on]");
  if (ir::isFloat(ctx.dtype(0)) && ctx.dtype(0) != ir::DType::F32 && ctx.dtype(0) != ir::DType::F64)
    return ctx.unsupported("indices of dtype {} are not supported", ir::dtypeName(ctx.dtype(0)));
  const int64_t r = ctx.rank(0) + 1;
  const int64_t raw = ctx.attrs().getInt("axis", -1);
  auto axis = normalizeAxis(raw, r);
  if (!axis) return ctx.fail("axis {} is out of range for an output of rank {}", raw, r);
  ir::Shape out = ctx.shape(0);
  out.insert(out.begin() + *axis, depth);
  ctx.attrs().set("axis", *axis);
  ctx.attrs().set("depth", depth);
  ctx.setOutput(0, ctx.dtype(2), out);
  return Status::ok();
}

int64_t perIndex(const ir::Node& n) { return n.inputs[1]->numel(); }

OpDef indexOp(const char* name, int since, const char* cann, int inputs, InferFn infer,
              const char* summary) {
  return OpDef(name)
      .kernel(createIndexKernel)
      .nativeDtypes()
      .onnx(since)
      .cann(cann)
      .inputs(inputs, inputs)
      .inferShape(infer)
      .evalConst(evalIndex)
      .flops(perIndex)
      .summary(summary);
}

}  // namespace

const OpDef& defGatherElements() {
  static const OpDef d =
      indexOp("GatherElements", 11, "GatherElements", 2, inferGatherElements,
              "out[i][j] = data[indices[i][j]][j] (axis 0); output has the indices' shape");
  return d;
}

const OpDef& defOneHot() {
  static const OpDef d = OpDef("OneHot")
                             .kernel(createOneHotKernel)
                             .nativeDtypes()
                             .onnx(9)
                             .inputs(3, 3)
                             .inferShape(inferOneHot)
                             .flops([](const ir::Node& n) { return n.outputs[0]->numel(); })
                             .summary(
                                 "on at index positions along a new axis of length depth, "
                                 "off elsewhere; negative indices count from depth");
  return d;
}

const OpDef& defScatterElements() {
  static const OpDef d = indexOp(
      "ScatterElements", 11, "ScatterElements", 3, inferScatterElements,
      "data with out[indices[i][j]][j] = updates[i][j] (axis 0); reduction add/mul/max/min");
  return d;
}

const OpDef& defScatter() {
  static const OpDef d = indexOp("Scatter", 9, "Scatter", 3, inferScatterElements,
                                 "ScatterElements before opset 11 (no reduction)");
  return d;
}

const OpDef& defGatherND() {
  static const OpDef d = indexOp("GatherND", 11, "GatherNd", 2, inferGatherND,
                                 "slices of data at index tuples (the indices' last dim), "
                                 "batch_dims");
  return d;
}

const OpDef& defScatterND() {
  static const OpDef d =
      indexOp("ScatterND", 11, "ScatterNd", 3, inferScatterND,
              "data with the slices at index tuples replaced by updates; reduction add/mul");
  return d;
}

}  // namespace asc::ops
