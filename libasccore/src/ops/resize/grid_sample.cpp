// grid_sample.cpp: GridSample (opset 16, -> CANN GridSampler2D): samples X [N, C, H, W] at the
// normalized (x, y) points of grid [N, Hout, Wout, 2] into [N, C, Hout, Wout]; mode bilinear
// (default), nearest or bicubic; padding_mode zeros (default), border or reflection;
// align_corners. 2-D images only.
#include "../op_util.h"
#include "grid_sample_kernel.h"

namespace asc::ops {
namespace {

Status inferGridSample(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const ir::Shape& g = ctx.shape(1);
  if (x.size() != 4)
    return ctx.unsupported("input of rank {} is not supported (4-D images)", x.size());
  if (g.size() != 4 || g[0] != x[0] || g[3] != 2)
    return ctx.fail("grid has shape [{}], expected [{}, Hout, Wout, 2]", ir::shapeToString(g),
                    x[0]);
  if (!ir::isFloat(ctx.dtype(0)) || !ir::isFloat(ctx.dtype(1)))
    return ctx.fail("inputs must be float types");
  const std::string m = ctx.attrs().getString("mode", "bilinear");
  if (m != "bilinear" && m != "nearest" && m != "bicubic")
    return ctx.fail("mode '{}' is not bilinear, nearest or bicubic", m);
  const std::string p = ctx.attrs().getString("padding_mode", "zeros");
  if (p != "zeros" && p != "border" && p != "reflection")
    return ctx.fail("padding_mode '{}' is not zeros, border or reflection", p);
  ctx.setOutput(0, ctx.dtype(0), {x[0], x[1], g[1], g[2]});
  return Status::ok();
}

}  // namespace

const OpDef& defGridSample() {
  static const OpDef d = OpDef("GridSample")
                             .kernel(createGridSampleKernel)
                             .onnx(16)
                             .cann("GridSampler2D")
                             .inputs(2, 2)
                             .inferShape(inferGridSample)
                             .flops([](const ir::Node& n) { return n.outputs[0]->numel() * 8; })
                             .summary(
                                 "samples the image at the grid's normalized points "
                                 "(bilinear/nearest/bicubic; zeros/border/reflection)");
  return d;
}

}  // namespace asc::ops
