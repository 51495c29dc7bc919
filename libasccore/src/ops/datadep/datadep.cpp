// datadep.cpp: ops whose output shape depends on the values of their inputs: NonZero, Compress,
// Unique and NonMaxSuppression (-> CANN NonZero, Compress, UniqueWithCountsAndSorting,
// NonMaxSuppressionV6, all AI CPU ops on the chip). Shape inference needs those values, so it
// asks for the inputs as constants (ctx.constInput) and fails when one is not known; the node then
// always folds through its constant evaluation, which is why these ops have no CPU kernel: a
// graph that keeps one of them cannot run.
#include "datadep_core.h"

namespace asc::ops {
namespace {

// The tensors of every present input, each asked for as a constant. Input `data_only` (if any)
// does not decide the output's shape, but the node is evaluated on constants all the same.
Result<std::vector<ir::Tensor>> constantInputs(InferContext& ctx, int data_only) {
  // Every input is asked for before any failure, so that a caller watching constInput() learns
  // all of them at once; the error names an input that decides the shape first.
  std::vector<const ir::Value*> vals;
  for (size_t i = 0; i < ctx.numInputs(); ++i)
    vals.push_back(ctx.hasInput(i) ? ctx.constInput(i) : nullptr);
  for (size_t i = 0; i < vals.size(); ++i)
    if (ctx.hasInput(i) && !vals[i] && static_cast<int>(i) != data_only)
      return ctx.fail(
          "input {} ('{}') must be known at compile time (a constant): the output's shape "
          "depends on its values",
          i, ctx.input(i).name);
  if (data_only >= 0 && ctx.hasInput(data_only) && !vals[data_only])
    return ctx.fail(
        "input {} ('{}') must be known at compile time (a constant): the op has no kernel and "
        "is evaluated on constant inputs",
        data_only, ctx.input(data_only).name);
  std::vector<ir::Tensor> ins;
  for (const ir::Value* v : vals) ins.push_back(v ? v->tensor() : ir::Tensor{});
  return ins;
}

// Runs `eval` on the constant inputs and gives the outputs its dtypes and shapes.
Status inferByEval(InferContext& ctx, EvalFn eval, int data_only = -1) {
  ASC_TRY(std::vector<ir::Tensor> ins, constantInputs(ctx, data_only));
  ASC_TRY(std::vector<ir::Tensor> outs, eval(ctx.node(), ins));
  for (size_t i = 0; i < outs.size(); ++i) ctx.setOutput(i, outs[i].dtype, outs[i].shape);
  return Status::ok();
}

Status inferNonZero(InferContext& ctx) { return inferByEval(ctx, datadep::nonZero); }

Status inferCompress(InferContext& ctx) {
  if (ctx.rank(1) != 1) return ctx.fail("condition must be 1-D, it has rank {}", ctx.rank(1));
  if (ctx.dtype(1) != ir::DType::Bool)
    return ctx.fail("condition has dtype {}, expected bool", ir::dtypeName(ctx.dtype(1)));
  return inferByEval(ctx, datadep::compress, /*data_only=*/0);
}

Status inferUnique(InferContext& ctx) { return inferByEval(ctx, datadep::unique); }

Status inferNms(InferContext& ctx) {
  for (size_t i = 0; i < 2; ++i)
    if (!ir::isFloat(ctx.dtype(i)))
      return ctx.fail("input {} has dtype {}, expected a float type", i,
                      ir::dtypeName(ctx.dtype(i)));
  if (ctx.hasInput(2) && ctx.dtype(2) != ir::DType::I64 && ctx.dtype(2) != ir::DType::I32)
    return ctx.fail("max_output_boxes_per_class has dtype {}, expected int64",
                    ir::dtypeName(ctx.dtype(2)));
  return inferByEval(ctx, datadep::nonMaxSuppression);
}

OpDef dataDependent(const char* name, int since, const char* cann, InferFn infer, EvalFn eval,
                    const char* summary) {
  return OpDef(name)
      .onnx(since)
      .cann(cann)
      .engine(Engine::AiCpu)
      .inferShape(infer)
      .evalConst(eval)
      .summary(summary);
}

}  // namespace

const OpDef& defNonZero() {
  static const OpDef d = dataDependent(
      "NonZero", 9, "NonZero", inferNonZero, datadep::nonZero,
      "int64 [rank, count] indices of the non-zero elements, row-major; needs a constant input "
      "(folded, no kernel)");
  return d;
}

const OpDef& defCompress() {
  static const OpDef d =
      dataDependent("Compress", 9, "Compress", inferCompress, datadep::compress,
                    "the slices along axis (or elements of the flattened input) where condition "
                    "is true; needs constant inputs (folded, no kernel)")
          .inputs(2, 2);
  return d;
}

const OpDef& defUnique() {
  static const OpDef d =
      dataDependent("Unique", 11, "UniqueWithCountsAndSorting", inferUnique, datadep::unique,
                    "unique elements or slices along axis (sorted or in order "
                    "of first occurrence), first indices, inverse indices and "
                    "counts; needs a constant input (folded, no kernel)")
          .outputs(1, 4);
  return d;
}

const OpDef& defNonMaxSuppression() {
  static const OpDef d =
      dataDependent("NonMaxSuppression", 10, "NonMaxSuppressionV6", inferNms,
                    datadep::nonMaxSuppression,
                    "greedy per-class box selection by score and IoU, int64 [selected, 3] "
                    "(batch, class, box); center_point_box; needs constant inputs (folded, "
                    "no kernel)")
          .inputs(2, 5);
  return d;
}

}  // namespace asc::ops
