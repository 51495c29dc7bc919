// crop_pad.cpp: CenterCropPad (ONNX opset 18). Each dim in `axes` (default: all, in order) is
// brought to its size in `shape`: a larger dim is cropped around its centre (the first
// (in - out) / 2 elements dropped, rounding down), a smaller one padded with zeros on both
// sides (the first (out - in) / 2 before, rounding down). It is Pad with those (negative or
// positive) constant pads, so it runs on Pad's kernel.
#include "shape_kernel.h"
#include "shape_util.h"

namespace asc::ops {
namespace {

using namespace shape_detail;

Status canonCenterCropPad(InferContext& ctx) {
  if (ctx.numInputs() < 2) return Status::ok();
  if (!ctx.constInput(1))
    return ctx.fail("shape (input 1) must be known at compile time (a constant)");
  ASC_RETURN_IF_ERROR(moveParam(ctx, 1, "shape"));
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferCenterCropPad(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const int64_t r = ctx.rank(0);
  ir::Attrs& a = ctx.attrs();
  if (!a.has("shape")) return ctx.fail("shape (input 1) is missing");
  const std::vector<int64_t> target = a.getInts("shape");
  std::vector<int64_t> axes;
  if (a.has("axes")) {
    ASC_TRY(axes, normalizeAxes(ctx, a.getInts("axes"), r, false));
  } else {
    for (int64_t i = 0; i < r; ++i) axes.push_back(i);
  }
  if (target.size() != axes.size())
    return ctx.fail("shape [{}] has {} sizes for {} axes", ir::shapeToString(target), target.size(),
                    axes.size());
  std::vector<int64_t> pads(2 * static_cast<size_t>(r), 0);
  ir::Shape out = x;
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t d = axes[i], in = x[static_cast<size_t>(d)], want = target[i];
    if (want < 0) return ctx.fail("shape [{}] has a negative size", ir::shapeToString(target));
    const int64_t begin = want >= in ? (want - in) / 2 : -((in - want) / 2);
    pads[static_cast<size_t>(d)] = begin;
    pads[static_cast<size_t>(r + d)] = want - in - begin;
    out[static_cast<size_t>(d)] = want;
  }
  a.set("axes", axes);
  a.set("pads", pads);
  a.set("mode", std::string("constant"));
  a.set("value", 0.0f);
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

}  // namespace

const OpDef& defCenterCropPad() {
  static const OpDef d = OpDef("CenterCropPad")
                             .kernel(createPadKernel)
                             .nativeDtypes()
                             .onnx(18)
                             .inputs(1, 2)
                             .canonicalize(canonCenterCropPad)
                             .inferShape(inferCenterCropPad)
                             .summary(
                                 "crops or zero-pads each of `axes` around its centre to "
                                 "the size in `shape` (Pad's kernel)");
  return d;
}

}  // namespace asc::ops
