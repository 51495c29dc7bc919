// grid_sample.cpp: GridSample (opset 16, -> CANN GridSampler2D): samples X [N, C, H, W] at the
// normalized (x, y) points of grid [N, Hout, Wout, 2] into [N, C, Hout, Wout], or a volume
// [N, C, D, H, W] at the (x, y, z) points of [N, Dout, Hout, Wout, 3] (GridSample-20's N-D form,
// CANN GridSampler3D); mode bilinear (default; trilinear on volumes), nearest or bicubic
// (tricubic); padding_mode zeros (default), border or reflection; align_corners.
#include "ops/op_util.h"
#include "grid_sample_kernel.h"

namespace asc::ops {
namespace {

Status inferGridSample(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const ir::Shape& g = ctx.shape(1);
  if (x.size() != 4 && x.size() != 5)
    return ctx.unsupported("input of rank {} is not supported (4-D images or 5-D volumes)",
                           x.size());
  const size_t nd = x.size() - 2;
  if (g.size() != x.size() || g[0] != x[0] || g.back() != static_cast<int64_t>(nd))
    return ctx.fail("grid has shape [{}], expected [{}, {}{}]", ir::shapeToString(g), x[0],
                    nd == 2 ? "Hout, Wout" : "Dout, Hout, Wout", nd == 2 ? ", 2" : ", 3");
  if (!ir::isFloat(ctx.dtype(0)) || !ir::isFloat(ctx.dtype(1)))
    return ctx.fail("inputs must be float types");
  const std::string m = ctx.attrs().getString("mode", "bilinear");
  if (m != "bilinear" && m != "nearest" && m != "bicubic")
    return ctx.fail("mode '{}' is not bilinear, nearest or bicubic", m);
  const std::string p = ctx.attrs().getString("padding_mode", "zeros");
  if (p != "zeros" && p != "border" && p != "reflection")
    return ctx.fail("padding_mode '{}' is not zeros, border or reflection", p);
  ir::Shape out = {x[0], x[1]};
  out.insert(out.end(), g.begin() + 1, g.end() - 1);
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

// A volume is CANN's GridSampler3D.
CannSpelling gridSampleSpelling(const ir::Node& n) {
  CannSpelling c;
  if (!n.inputs.empty() && n.inputs[0] && n.inputs[0]->shape.size() == 5) c.type = "GridSampler3D";
  return c;
}

}  // namespace

const OpDef& defGridSample() {
  static const OpDef d = OpDef("GridSample")
                             .kernel(createGridSampleKernel)
                             .onnx(16)
                             .cann("GridSampler2D")
                             .cannSpelling(gridSampleSpelling)
                             .inputs(2, 2)
                             .inferShape(inferGridSample)
                             .flops([](const ir::Node& n) { return n.outputs[0]->numel() * 8; })
                             .summary(
                                 "samples the image at the grid's normalized points "
                                 "(bilinear/nearest/bicubic; zeros/border/reflection)");
  return d;
}

}  // namespace asc::ops
