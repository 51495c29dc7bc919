// matrix.cpp: ops on the last two dims: Trilu (opset 14; -> CANN Tril/Triu by `upper`, one type
// here: Trilu) keeps the upper or lower triangle from diagonal k (input 1, an int64 scalar,
// default 0; read at run time when it is not a constant); EyeLike (opset 9) gives a 2-D tensor of
// the input's shape with ones on diagonal k, in the dtype of attribute `dtype` or the input's.
// Both fold (EyeLike from the input's shape alone).
#include "../op_util.h"
#include "../shape/shape_kernel.h"
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

}  // namespace

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
