// matrix.cpp: ops on the last two dims: Trilu (opset 14; -> CANN Tril/Triu by `upper`, one type
// here: Trilu) keeps the upper or lower triangle from diagonal k (input 1, an int64 scalar,
// default 0; read at run time when it is not a constant); EyeLike (opset 9) gives a 2-D tensor of
// the input's shape with ones on diagonal k, in the dtype of attribute `dtype` or the input's.
// Both fold (EyeLike from the input's shape alone). Det (opset 11) gives the determinants of
// [*, M, M] matrices; ReverseSequence (10) reverses each batch row's first sequence_lens[b] steps
// (the lengths may be a run-time input); Einsum (12) sums products by its equation.
#include "ops/op_util.h"
#include "ops/shape/shape_kernel.h"
#include "einsum.h"
#include "matrix_kernel.h"

namespace asc::ops {
namespace {

Status inferTrilu(InferContext& ctx) {
  if (ctx.rank(0) < 2) return ctx.fail("input must have rank >= 2, it has {}", ctx.rank(0));
  if (ctx.numInputs() > 1 && ctx.hasInput(1)) {
    if (ctx.dtype(1) != ir::DType::I64 || ctx.input(1).numel() != 1)
      return ctx.fail("k (input 1) must be one int64, it is {} [{}]", ir::dtypeName(ctx.dtype(1)),
                      ir::shapeToString(ctx.shape(1)));
  }
  return inferSameAsInput0(ctx);
}

Result<std::vector<ir::Tensor>> evalTrilu(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const int64_t k = in.size() > 1 && in[1].data ? in[1].intAt(0) : 0;
  TensorBuilder b(in[0].dtype, in[0].shape);
  trilu(in[0].data->data(), b.bytes.data(), in[0].shape, ir::dtypeSize(in[0].dtype),
        n.attrs.getInt("upper", 1) != 0, k);
  return std::vector<ir::Tensor>{b.finish()};
}

Status inferEyeLike(InferContext& ctx) {
  if (ctx.rank(0) != 2) return ctx.fail("input must be 2-D, it has rank {}", ctx.rank(0));
  ir::DType t = ctx.dtype(0);
  if (ctx.attrs().has("dtype")) {
    const int64_t v = ctx.attrs().getInt("dtype", 0);
    t = ir::dtypeFromOnnx(static_cast<int>(v));
    if (t == ir::DType::Undefined) return ctx.unsupported("dtype {} is not supported", v);
  }
  ctx.setOutput(0, t, ctx.shape(0));
  return Status::ok();
}

Result<std::vector<ir::Tensor>> evalEyeLike(const ir::Node& n, const std::vector<ir::Tensor>&) {
  const ir::Value* o = n.outputs[0];
  const int64_t k = n.attrs.getInt("k", 0);
  TensorBuilder b(o->dtype, o->shape);
  for (int64_t i = 0; i < o->shape[0]; ++i) {
    const int64_t j = i + k;
    if (j >= 0 && j < o->shape[1]) b.setFloat(i * o->shape[1] + j, 1.0);
  }
  return std::vector<ir::Tensor>{b.finish()};
}

Status inferDet(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  if (x.size() < 2 || x[x.size() - 1] != x[x.size() - 2])
    return ctx.fail("input must be [*, M, M], it is [{}]", ir::shapeToString(x));
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  ctx.setOutput(0, ctx.dtype(0), ir::Shape(x.begin(), x.end() - 2));
  return Status::ok();
}

Result<std::vector<ir::Tensor>> evalDet(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Shape& x = in[0].shape;
  const int64_t m = x.back();
  const int64_t mats = m ? in[0].numel() / (m * m) : 0;
  TensorBuilder b(n.outputs[0]->dtype, n.outputs[0]->shape);
  std::vector<double> a(static_cast<size_t>(m * m));
  for (int64_t k = 0; k < mats; ++k) {
    for (int64_t i = 0; i < m * m; ++i) a[i] = in[0].floatAt(k * m * m + i);
    b.setFloat(k, determinant(a, m));
  }
  return std::vector<ir::Tensor>{b.finish()};
}

Status inferReverseSequence(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  if (x.size() < 2) return ctx.fail("input must have rank >= 2");
  const int64_t ba = ctx.attrs().getInt("batch_axis", 1), ta = ctx.attrs().getInt("time_axis", 0);
  if (!((ba == 0 && ta == 1) || (ba == 1 && ta == 0)))
    return ctx.fail("batch_axis {} and time_axis {} must be 0 and 1", ba, ta);
  if (ctx.dtype(1) != ir::DType::I64 || ctx.shape(1) != ir::Shape{x[ba]})
    return ctx.fail("sequence_lens must be int64 [{}], it is {} [{}]", x[ba],
                    ir::dtypeName(ctx.dtype(1)), ir::shapeToString(ctx.shape(1)));
  ctx.attrs().set("batch_axis", ba);
  ctx.attrs().set("time_axis", ta);
  return inferSameAsInput0(ctx);
}

Status inferEinsum(InferContext& ctx) {
  if (!ctx.attrs().has("equation")) return ctx.fail("attribute 'equation' is required");
  std::vector<ir::Shape> shapes;
  for (size_t i = 0; i < ctx.numInputs(); ++i) {
    if (!ctx.hasInput(i)) return ctx.fail("input {} is empty", i);
    if (ctx.dtype(i) != ctx.dtype(0)) return ctx.fail("inputs must share one dtype");
    shapes.push_back(ctx.shape(i));
  }
  einsum::Plan plan;
  const std::string err = einsum::parse(ctx.attrs().getString("equation", ""), shapes, &plan);
  if (!err.empty()) return ctx.fail("{}", err);
  ctx.setOutput(0, ctx.dtype(0), plan.outShape());
  return Status::ok();
}

Result<std::vector<ir::Tensor>> evalEinsum(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  std::vector<ir::Shape> shapes;
  for (const auto& t : in) shapes.push_back(t.shape);
  einsum::Plan plan;
  einsum::parse(n.attrs.getString("equation", ""), shapes, &plan);
  const auto r =
      einsum::evaluate(plan, shapes, [&](size_t i, int64_t off) { return in[i].floatAt(off); });
  TensorBuilder b(n.outputs[0]->dtype, n.outputs[0]->shape);
  for (size_t i = 0; i < r.size(); ++i) b.setFloat(static_cast<int64_t>(i), r[i]);
  return std::vector<ir::Tensor>{b.finish()};
}

}  // namespace

const OpDef& defEinsum() {
  static const OpDef d = OpDef("Einsum")
                             .kernel(createEinsumKernel)
                             .onnx(12)
                             .inputs(1, 1 << 20)
                             .inferShape(inferEinsum)
                             .evalConst(evalEinsum)
                             .flops([](const ir::Node& n) { return n.outputs[0]->numel() * 2; })
                             .summary(
                                 "Einstein summation by equation (ellipsis, implicit "
                                 "output; a naive loop)");
  return d;
}

const OpDef& defDet() {
  static const OpDef d = OpDef("Det")
                             .kernel(createDetKernel)
                             .precisionClass(PrecisionClass::Sensitive)
                             .onnx(11)
                             .inferShape(inferDet)
                             .evalConst(evalDet)
                             .flops([](const ir::Node& n) { return n.inputs[0]->numel() * 8; })
                             .summary("determinants of the [*, M, M] matrices");
  return d;
}

const OpDef& defReverseSequence() {
  static const OpDef d = OpDef("ReverseSequence")
                             .kernel(createReverseSequenceKernel)
                             .nativeDtypes()
                             .onnx(10)
                             .inputs(2, 2)
                             .inferShape(inferReverseSequence)
                             .summary(
                                 "reverses the first sequence_lens[b] steps of each batch "
                                 "row along time_axis");
  return d;
}

const OpDef& defTrilu() {
  static const OpDef d = OpDef("Trilu")
                             .kernel(createTriluKernel)
                             .nativeDtypes()
                             .onnx(14)
                             .inputs(1, 2)
                             .inferShape(inferTrilu)
                             .evalConst(evalTrilu)
                             .summary(
                                 "upper (upper=1) or lower triangle of the last two dims "
                                 "from diagonal k; the rest 0");
  return d;
}

const OpDef& defEyeLike() {
  static const OpDef d = OpDef("EyeLike")
                             .kernel(createConstKernel)
                             .nativeDtypes()
                             .onnx(9)
                             .inferShape(inferEyeLike)
                             .evalConst(evalEyeLike)
                             .evalFromShapes()
                             .summary("ones on diagonal k of a 2-D tensor of the input's shape");
  return d;
}

}  // namespace asc::ops
