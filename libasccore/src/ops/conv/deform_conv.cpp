// deform_conv.cpp: DeformConv (ONNX opset 19), 2-D. Like Conv, but each kernel tap (kh, kw) of
// each output position samples the input at its regular place moved by a learned offset,
// offset [N, offset_group * kH * kW * 2, oH, oW] ((dy, dx) per tap), bilinearly with zeros
// outside the image, and scaled by the optional mask [N, offset_group * kH * kW, oH, oW]. Input
// channels are split into `group` convolution groups and `offset_group` offset groups. The
// kernel gathers the sampled columns [C * kH * kW, oH * oW] of one image, then multiplies each
// group's weights into them.
#include <cmath>

#include "../op_util.h"
#include "cpu/parallel.h"

namespace asc::ops {
namespace {

struct DeformGeom {
  int64_t n = 1, c = 1, h = 1, w = 1, oc = 1, kh = 1, kw = 1, oh = 1, ow = 1;
  int64_t group = 1, offset_group = 1;
  std::vector<int64_t> strides, dil, pads;
};

DeformGeom deformGeom(const ir::Attrs& a, const ir::Shape& x, const ir::Shape& wt) {
  DeformGeom g;
  g.n = x[0], g.c = x[1], g.h = x[2], g.w = x[3];
  g.oc = wt[0];
  const auto k = a.getInts("kernel_shape", {wt[2], wt[3]});
  g.kh = k[0], g.kw = k[1];
  g.strides = a.getInts("strides", {1, 1});
  g.dil = a.getInts("dilations", {1, 1});
  g.pads = a.getInts("pads", {0, 0, 0, 0});
  g.group = a.getInt("group", 1);
  g.offset_group = a.getInt("offset_group", 1);
  g.oh = (g.h + g.pads[0] + g.pads[2] - ((g.kh - 1) * g.dil[0] + 1)) / g.strides[0] + 1;
  g.ow = (g.w + g.pads[1] + g.pads[3] - ((g.kw - 1) * g.dil[1] + 1)) / g.strides[1] + 1;
  return g;
}

Status inferDeformConv(InferContext& ctx) {
  const ir::Shape &x = ctx.shape(0), &wt = ctx.shape(1);
  if (x.size() != 4 || wt.size() != 4)
    return ctx.unsupported("X [{}] and W [{}]: only 2-D DeformConv (4-D tensors) is built",
                           ir::shapeToString(x), ir::shapeToString(wt));
  for (size_t i = 0; i < ctx.numInputs(); ++i)
    if (ctx.hasInput(i) && ctx.dtype(i) != ir::DType::F32)
      return ctx.unsupported("input {} is {}; float32 is supported", i,
                             ir::dtypeName(ctx.dtype(i)));
  const ir::Attrs& a = ctx.attrs();
  for (const char* n : {"strides", "dilations"})
    if (a.has(n) && a.getInts(n).size() != 2) return ctx.fail("{} must have 2 values", n);
  if (a.has("pads") && a.getInts("pads").size() != 4) return ctx.fail("pads must have 4 values");
  const DeformGeom g = deformGeom(a, x, wt);
  if (g.group < 1 || g.offset_group < 1 || g.c % g.group || g.oc % g.group ||
      wt[1] * g.group != g.c || g.c % g.offset_group)
    return ctx.fail("X has {} channels, W [{}], group {} and offset_group {} do not fit", g.c,
                    ir::shapeToString(wt), g.group, g.offset_group);
  if (wt[2] != g.kh || wt[3] != g.kw)
    return ctx.fail("kernel_shape [{}, {}] differs from W [{}]", g.kh, g.kw, ir::shapeToString(wt));
  for (int64_t v : g.strides)
    if (v < 1) return ctx.fail("strides must be positive");
  for (int64_t v : g.dil)
    if (v < 1) return ctx.fail("dilations must be positive");
  if (g.oh < 1 || g.ow < 1) return ctx.fail("the kernel does not fit the padded input");
  const int64_t taps = g.offset_group * g.kh * g.kw;
  if (ctx.shape(2) != ir::Shape{g.n, taps * 2, g.oh, g.ow})
    return ctx.fail("offset [{}] must be [{}, {}, {}, {}]", ir::shapeToString(ctx.shape(2)), g.n,
                    taps * 2, g.oh, g.ow);
  if (ctx.numInputs() > 3 && ctx.hasInput(3) && ctx.shape(3) != ir::Shape{g.oc})
    return ctx.fail("B [{}] must be [{}]", ir::shapeToString(ctx.shape(3)), g.oc);
  if (ctx.numInputs() > 4 && ctx.hasInput(4) && ctx.shape(4) != ir::Shape{g.n, taps, g.oh, g.ow})
    return ctx.fail("mask [{}] must be [{}, {}, {}, {}]", ir::shapeToString(ctx.shape(4)), g.n,
                    taps, g.oh, g.ow);
  ctx.setOutput(0, ir::DType::F32, {g.n, g.oc, g.oh, g.ow});
  return Status::ok();
}

class DeformConvKernel : public Kernel {
 public:
  explicit DeformConvKernel(const KernelInit& k)
      : g_(deformGeom(k.node.attrs, k.inputs[0].shape(), k.inputs[1].shape())),
        x_(k.inputs[0].f32()),
        w_(k.inputs[1].f32()),
        off_(k.inputs[2].f32()),
        b_(k.inputs.size() > 3 && k.inputs[3].data ? k.inputs[3].f32() : nullptr),
        mask_(k.inputs.size() > 4 && k.inputs[4].data ? k.inputs[4].f32() : nullptr),
        y_(static_cast<float*>(k.outputs[0].data)),
        cols_(static_cast<size_t>(g_.c * g_.kh * g_.kw * g_.oh * g_.ow)) {}

  void run() override {
    const int64_t taps = g_.kh * g_.kw, plane = g_.oh * g_.ow;
    const int64_t per_offset_group = g_.c / g_.offset_group;
    for (int64_t n = 0; n < g_.n; ++n) {
      // The sampled columns: row (c, tap), column (oy, ox).
      cpu::parallelFor(g_.c * taps, 1, [&](int64_t from, int64_t to) {
        for (int64_t row = from; row < to; ++row) {
          const int64_t c = row / taps, t = row % taps, ky = t / g_.kw, kx = t % g_.kw;
          const int64_t og = c / per_offset_group;
          const float* img = x_ + (n * g_.c + c) * g_.h * g_.w;
          const float* dy = off_ + ((n * g_.offset_group + og) * taps * 2 + 2 * t) * plane;
          const float* dx = dy + plane;
          const float* m =
              mask_ ? mask_ + ((n * g_.offset_group + og) * taps + t) * plane : nullptr;
          float* col = cols_.data() + row * plane;
          for (int64_t oy = 0; oy < g_.oh; ++oy)
            for (int64_t ox = 0; ox < g_.ow; ++ox) {
              const int64_t p = oy * g_.ow + ox;
              const double sy =
                  static_cast<double>(oy * g_.strides[0] - g_.pads[0] + ky * g_.dil[0]) + dy[p];
              const double sx =
                  static_cast<double>(ox * g_.strides[1] - g_.pads[1] + kx * g_.dil[1]) + dx[p];
              const float v = sample(img, sy, sx);
              col[p] = m ? v * m[p] : v;
            }
        }
      });
      // Per group: y[oc, p] = B[oc] + W[oc, (c, tap)] . cols[(c, tap), p].
      const int64_t ocg = g_.oc / g_.group, icg = g_.c / g_.group, k = icg * taps;
      cpu::parallelFor(g_.oc, 1, [&](int64_t from, int64_t to) {
        for (int64_t o = from; o < to; ++o) {
          const int64_t grp = o / ocg;
          float* y = y_ + (n * g_.oc + o) * plane;
          std::fill(y, y + plane, b_ ? b_[o] : 0.f);
          const float* wrow = w_ + o * k;
          const float* cols = cols_.data() + grp * k * plane;
          for (int64_t r = 0; r < k; ++r) {
            const float wv = wrow[r];
            const float* col = cols + r * plane;
            for (int64_t p = 0; p < plane; ++p) y[p] += wv * col[p];
          }
        }
      });
    }
  }
  std::string implName() const override { return "deform-conv"; }

 private:
  // Bilinear sample at (y, x) in pixel units; the corners outside the image count as 0.
  float sample(const float* img, double y, double x) const {
    const double fy = std::floor(y), fx = std::floor(x);
    const int64_t y0 = static_cast<int64_t>(fy), x0 = static_cast<int64_t>(fx);
    const double wy = y - fy, wx = x - fx;
    double v = 0;
    for (int dyi = 0; dyi < 2; ++dyi)
      for (int dxi = 0; dxi < 2; ++dxi) {
        const int64_t yy = y0 + dyi, xx = x0 + dxi;
        if (yy < 0 || yy >= g_.h || xx < 0 || xx >= g_.w) continue;
        v += (dyi ? wy : 1 - wy) * (dxi ? wx : 1 - wx) * img[yy * g_.w + xx];
      }
    return static_cast<float>(v);
  }

  DeformGeom g_;
  const float *x_, *w_, *off_, *b_, *mask_;
  float* y_;
  std::vector<float> cols_;
};

Result<std::unique_ptr<Kernel>> createDeformConvKernel(const KernelInit& k) {
  for (size_t i = 0; i < k.inputs.size(); ++i)
    if (k.inputs[i].data && k.inputs[i].layout != Layout::Plain)
      return Status::error(ErrorCode::Internal, "node '{}': DeformConv takes plain tensors",
                           k.node.name);
  return std::unique_ptr<Kernel>(std::make_unique<DeformConvKernel>(k));
}

}  // namespace

const OpDef& defDeformConv() {
  static const OpDef d =
      OpDef("DeformConv")
          .kernel(createDeformConvKernel)
          .onnx(19)
          .cann("DeformableConv2D")
          .inputs(3, 5)
          .inferShape(inferDeformConv)
          .flops([](const ir::Node& n) {
            const ir::Shape& w = n.inputs[1]->shape;
            return 2 * n.outputs[0]->numel() * (w.size() == 4 ? w[1] * w[2] * w[3] : 1);
          })
          .summary(
              "2-D convolution sampling each tap at a learned offset (bilinear), with an "
              "optional mask; group and offset_group");
  return d;
}

}  // namespace asc::ops
