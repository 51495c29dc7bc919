// deform_conv.cpp: DeformConv (ONNX opset 19) over 1, 2 or 3 spatial dims. Like Conv, but each
// kernel tap of each output position samples the input at its regular place moved by a learned
// offset, offset [N, offset_group * taps * nd, out...] (one coordinate per spatial dim and tap,
// in dim order: (dy, dx) in 2-D), N-linearly with zeros outside the input, and scaled by the
// optional mask [N, offset_group * taps, out...]. Input channels are split into `group`
// convolution groups and `offset_group` offset groups. The kernel gathers the sampled columns
// [C * taps, out positions] of one image, then multiplies each group's weights into them.
#include <cmath>

#include "ops/op_util.h"
#include "cpu/parallel.h"

namespace asc::ops {
namespace {

struct DeformGeom {
  int64_t n = 1, c = 1, oc = 1, group = 1, offset_group = 1;
  size_t nd = 0;                    // spatial dims
  std::vector<int64_t> in, k, out;  // per spatial dim
  std::vector<int64_t> strides, dil, pads;
  int64_t taps() const { return ir::numElements(k); }
  int64_t inPlane() const { return ir::numElements(in); }
  int64_t outPlane() const { return ir::numElements(out); }
};

DeformGeom deformGeom(const ir::Attrs& a, const ir::Shape& x, const ir::Shape& wt) {
  DeformGeom g;
  g.nd = x.size() - 2;
  g.n = x[0], g.c = x[1], g.oc = wt[0];
  g.in.assign(x.begin() + 2, x.end());
  g.k = a.getInts("kernel_shape", std::vector<int64_t>(wt.begin() + 2, wt.end()));
  g.strides = a.getInts("strides", std::vector<int64_t>(g.nd, 1));
  g.dil = a.getInts("dilations", std::vector<int64_t>(g.nd, 1));
  g.pads = a.getInts("pads", std::vector<int64_t>(2 * g.nd, 0));
  g.group = a.getInt("group", 1);
  g.offset_group = a.getInt("offset_group", 1);
  if (g.k.size() != g.nd || g.strides.size() != g.nd || g.dil.size() != g.nd ||
      g.pads.size() != 2 * g.nd)
    return g;  // inferDeformConv reports it; out stays empty
  for (size_t d = 0; d < g.nd; ++d)
    g.out.push_back((g.in[d] + g.pads[d] + g.pads[g.nd + d] - ((g.k[d] - 1) * g.dil[d] + 1)) /
                        std::max<int64_t>(g.strides[d], 1) +
                    1);
  return g;
}

Status inferDeformConv(InferContext& ctx) {
  const ir::Shape &x = ctx.shape(0), &wt = ctx.shape(1);
  if (x.size() < 3 || x.size() > 5 || wt.size() != x.size())
    return ctx.unsupported(
        "X [{}] and W [{}]: DeformConv is built for 1 to 3 spatial dims, with X and W of the "
        "same rank",
        ir::shapeToString(x), ir::shapeToString(wt));
  for (size_t i = 0; i < ctx.numInputs(); ++i)
    if (ctx.hasInput(i) && ctx.dtype(i) != ir::DType::F32)
      return ctx.unsupported("input {} is {}; float32 is supported", i,
                             ir::dtypeName(ctx.dtype(i)));
  const ir::Attrs& a = ctx.attrs();
  const size_t nd = x.size() - 2;
  for (const char* n : {"strides", "dilations", "kernel_shape"})
    if (a.has(n) && a.getInts(n).size() != nd) return ctx.fail("{} must have {} values", n, nd);
  if (a.has("pads") && a.getInts("pads").size() != 2 * nd)
    return ctx.fail("pads must have {} values", 2 * nd);
  const DeformGeom g = deformGeom(a, x, wt);
  if (g.group < 1 || g.offset_group < 1 || g.c % g.group || g.oc % g.group ||
      wt[1] * g.group != g.c || g.c % g.offset_group)
    return ctx.fail("X has {} channels, W [{}], group {} and offset_group {} do not fit", g.c,
                    ir::shapeToString(wt), g.group, g.offset_group);
  if (!std::equal(g.k.begin(), g.k.end(), wt.begin() + 2))
    return ctx.fail("kernel_shape [{}] differs from W [{}]", ir::shapeToString(g.k),
                    ir::shapeToString(wt));
  for (int64_t v : g.strides)
    if (v < 1) return ctx.fail("strides must be positive");
  for (int64_t v : g.dil)
    if (v < 1) return ctx.fail("dilations must be positive");
  for (int64_t v : g.out)
    if (v < 1) return ctx.fail("the kernel does not fit the padded input");
  const int64_t taps = g.offset_group * g.taps();
  auto expect = [&](int64_t channels) {
    ir::Shape s{g.n, channels};
    s.insert(s.end(), g.out.begin(), g.out.end());
    return s;
  };
  if (ctx.shape(2) != expect(taps * static_cast<int64_t>(nd)))
    return ctx.fail("offset [{}] must be [{}]", ir::shapeToString(ctx.shape(2)),
                    ir::shapeToString(expect(taps * static_cast<int64_t>(nd))));
  if (ctx.numInputs() > 3 && ctx.hasInput(3) && ctx.shape(3) != ir::Shape{g.oc})
    return ctx.fail("B [{}] must be [{}]", ir::shapeToString(ctx.shape(3)), g.oc);
  if (ctx.numInputs() > 4 && ctx.hasInput(4) && ctx.shape(4) != expect(taps))
    return ctx.fail("mask [{}] must be [{}]", ir::shapeToString(ctx.shape(4)),
                    ir::shapeToString(expect(taps)));
  ctx.setOutput(0, ir::DType::F32, expect(g.oc));
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
        cols_(static_cast<size_t>(g_.c * g_.taps() * g_.outPlane())) {}

  void run() override {
    const int64_t taps = g_.taps(), plane = g_.outPlane(), nd = static_cast<int64_t>(g_.nd);
    const int64_t per_offset_group = g_.c / g_.offset_group;
    for (int64_t n = 0; n < g_.n; ++n) {
      // The sampled columns: row (c, tap), column (output position).
      cpu::parallelFor(g_.c * taps, 1, [&](int64_t from, int64_t to) {
        std::vector<int64_t> tap(g_.nd), pos(g_.nd);
        std::vector<double> at(g_.nd);
        for (int64_t row = from; row < to; ++row) {
          const int64_t c = row / taps, t = row % taps;
          unravel(t, g_.k, tap);
          const int64_t og = c / per_offset_group;
          const float* img = x_ + (n * g_.c + c) * g_.inPlane();
          const float* off = off_ + ((n * g_.offset_group + og) * taps + t) * nd * plane;
          const float* m =
              mask_ ? mask_ + ((n * g_.offset_group + og) * taps + t) * plane : nullptr;
          float* col = cols_.data() + row * plane;
          for (int64_t p = 0; p < plane; ++p) {
            unravel(p, g_.out, pos);
            for (size_t d = 0; d < g_.nd; ++d)
              at[d] =
                  static_cast<double>(pos[d] * g_.strides[d] - g_.pads[d] + tap[d] * g_.dil[d]) +
                  off[static_cast<int64_t>(d) * plane + p];
            const float v = sample(img, at);
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
  static void unravel(int64_t i, const std::vector<int64_t>& dims, std::vector<int64_t>& idx) {
    for (size_t d = dims.size(); d-- > 0;) {
      idx[d] = i % dims[d];
      i /= dims[d];
    }
  }

  // N-linear sample at `at` (input index units); the corners outside the input count as 0.
  float sample(const float* img, const std::vector<double>& at) const {
    double v = 0;
    for (int corner = 0; corner < (1 << g_.nd); ++corner) {
      double w = 1;
      int64_t off = 0;
      bool inside = true;
      for (size_t d = 0; d < g_.nd && inside; ++d) {
        const double f = std::floor(at[d]);
        const bool hi = (corner >> d) & 1;
        const int64_t i = static_cast<int64_t>(f) + hi;
        inside = i >= 0 && i < g_.in[d];
        w *= hi ? at[d] - f : 1 - (at[d] - f);
        off = off * g_.in[d] + i;
      }
      if (inside && w != 0) v += w * img[off];
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
            return 2 * n.outputs[0]->numel() * (ir::numElements(w) / std::max<int64_t>(w[0], 1));
          })
          .summary(
              "1-D to 3-D convolution sampling each tap at a learned offset (N-linear), with "
              "an optional mask; group and offset_group");
  return d;
}

}  // namespace asc::ops
