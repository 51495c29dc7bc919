// roi_align.cpp: RoiAlign (-> CANN ROIAlign): for each region of interest (x1, y1, x2, y2 in
// input coordinates times spatial_scale) on image batch_indices[r] of X [N, C, H, W], an
// [output_height, output_width] grid of bins, each the average (mode avg) or the maximum (mode
// max) of sampling_ratio^2 bilinear samples (sampling_ratio 0: ceil(bin size) per side). Opset 16's
// coordinate_transformation_mode half_pixel shifts the region by -0.5 pixel; output_half_pixel
// (the only behaviour before opset 16) does not, and makes every region at least 1x1. Max mode
// takes, per sample, the largest of the four weighted corner values, as ONNX Runtime does.
#include <algorithm>
#include <cmath>

#include "ops/op_util.h"
#include "cpu/parallel.h"

namespace asc::ops {
namespace {

constexpr const char* kCoordAttr = "coordinate_transformation_mode";
// More samples per bin side than any model uses; bounds the work per bin.
constexpr int64_t kMaxSamplingRatio = 128;

Status inferRoiAlign(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const ir::Shape& rois = ctx.shape(1);
  const ir::Shape& bi = ctx.shape(2);
  if (x.size() != 4)
    return ctx.fail("X must be 4-D [N, C, H, W], it is [{}]", ir::shapeToString(x));
  if (rois.size() != 2 || rois[1] != 4)
    return ctx.fail("rois must be [num_rois, 4], they are [{}]", ir::shapeToString(rois));
  if (bi.size() != 1 || bi[0] != rois[0])
    return ctx.fail("batch_indices must be [{}], they are [{}]", rois[0], ir::shapeToString(bi));
  if (ctx.dtype(0) != ir::DType::F32 && ctx.dtype(0) != ir::DType::F16 &&
      ctx.dtype(0) != ir::DType::BF16)
    return ctx.unsupported("X of dtype {} is not supported (float32/float16)",
                           ir::dtypeName(ctx.dtype(0)));
  if (ctx.dtype(1) != ctx.dtype(0))
    return ctx.fail("rois have dtype {}, X {}; they must match", ir::dtypeName(ctx.dtype(1)),
                    ir::dtypeName(ctx.dtype(0)));
  if (ctx.dtype(2) != ir::DType::I64 && ctx.dtype(2) != ir::DType::I32)
    return ctx.fail("batch_indices have dtype {}, expected int64", ir::dtypeName(ctx.dtype(2)));
  ir::Attrs& a = ctx.attrs();
  // Before opset 16 there is no attribute and the behaviour is output_half_pixel's; record it
  // so that the kernel reads one form.
  if (!a.has(kCoordAttr))
    a.set(kCoordAttr, std::string(ctx.opset() < 16 ? "output_half_pixel" : "half_pixel"));
  const std::string coord = a.getString(kCoordAttr, "half_pixel");
  if (coord != "half_pixel" && coord != "output_half_pixel")
    return ctx.fail("{} '{}' must be half_pixel or output_half_pixel", kCoordAttr, coord);
  const std::string mode = a.getString("mode", "avg");
  if (mode != "avg" && mode != "max") return ctx.fail("mode '{}' must be avg or max", mode);
  const int64_t oh = a.getInt("output_height", 1), ow = a.getInt("output_width", 1);
  if (oh <= 0 || ow <= 0)
    return ctx.fail("output_height {} and output_width {} must be positive", oh, ow);
  const int64_t sr = a.getInt("sampling_ratio", 0);
  if (sr < 0) return ctx.fail("sampling_ratio {} must be >= 0", sr);
  if (sr > kMaxSamplingRatio)
    return ctx.unsupported("sampling_ratio {} is over the supported {}", sr, kMaxSamplingRatio);
  const float scale = a.getFloat("spatial_scale", 1.f);
  if (!std::isfinite(scale)) return ctx.fail("spatial_scale {} must be finite", scale);
  ctx.setOutput(0, ctx.dtype(0), {rois[0], x[1], oh, ow});
  return Status::ok();
}

// One bilinear sample: up to four pixels and their weights (all weights 0 outside the image).
struct Sample {
  int64_t pos[4] = {0, 0, 0, 0};
  float w[4] = {0, 0, 0, 0};
  bool hit = false;
};

Sample bilinear(double y, double x, int64_t h, int64_t w) {
  Sample s;
  if (h <= 0 || w <= 0 ||
      !(y >= -1.0 && y <= static_cast<double>(h) && x >= -1.0 && x <= static_cast<double>(w)))
    return s;  // also NaN
  s.hit = true;
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1, x1;
  if (y0 >= h - 1) {
    y0 = y1 = h - 1;
    y = static_cast<double>(y0);
  } else {
    y1 = y0 + 1;
  }
  if (x0 >= w - 1) {
    x0 = x1 = w - 1;
    x = static_cast<double>(x0);
  } else {
    x1 = x0 + 1;
  }
  const double ly = y - static_cast<double>(y0), lx = x - static_cast<double>(x0);
  const double hy = 1 - ly, hx = 1 - lx;
  s.pos[0] = y0 * w + x0;
  s.pos[1] = y0 * w + x1;
  s.pos[2] = y1 * w + x0;
  s.pos[3] = y1 * w + x1;
  s.w[0] = static_cast<float>(hy * hx);
  s.w[1] = static_cast<float>(hy * lx);
  s.w[2] = static_cast<float>(ly * hx);
  s.w[3] = static_cast<float>(ly * lx);
  return s;
}

// The sample indices of one bin side that can touch the image: samples at
// start + (i + 0.5) * step for i in [0, grid) outside [-1, size] read nothing, so only the
// others are visited (a huge region costs no more than the image).
struct Range {
  int64_t lo = 0, hi = 0;  // [lo, hi)
};
Range visible(double start, double step, double grid, int64_t size) {
  if (!(grid >= 1)) return {0, 0};
  // Few samples (every fixed sampling_ratio): all of them, whatever the step's sign.
  if (grid <= static_cast<double>(kMaxSamplingRatio)) return {0, static_cast<int64_t>(grid)};
  // Many samples come only from a large region (step > 0); an infinite or NaN one misses the
  // image with every sample, so one stands for all.
  if (!std::isfinite(start) || !std::isfinite(step) || !(step > 0)) return {0, 1};
  double lo = std::ceil((-1.0 - start) / step - 0.5);
  double hi = std::floor((static_cast<double>(size) - start) / step - 0.5) + 1;
  // One more on each side: rounding must not lose a sample on the edge (bilinear() decides).
  lo = std::clamp(lo - 1, 0.0, grid);
  hi = std::clamp(hi + 1, lo, grid);
  return {static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
}

class RoiAlignKernel : public Kernel {
 public:
  explicit RoiAlignKernel(const KernelInit& k)
      : x_(k.inputs[0].f32()),
        rois_(k.inputs[1].f32()),
        bi_(k.inputs[2].data),
        bi64_(k.inputs[2].dtype() == ir::DType::I64),
        y_(static_cast<float*>(k.outputs[0].data)),
        name_(k.node.name) {
    const ir::Shape& s = k.inputs[0].shape();
    n_ = s[0];
    c_ = s[1];
    h_ = s[2];
    w_ = s[3];
    r_ = k.inputs[1].shape()[0];
    const ir::Attrs& a = k.node.attrs;
    oh_ = a.getInt("output_height", 1);
    ow_ = a.getInt("output_width", 1);
    sr_ = a.getInt("sampling_ratio", 0);
    scale_ = a.getFloat("spatial_scale", 1.f);
    max_ = a.getString("mode", "avg") == "max";
    half_pixel_ = a.getString(kCoordAttr, "half_pixel") == "half_pixel";
  }

  void run() override {
    // Batch indices are checked first: nothing may throw out of the parallel loop.
    for (int64_t r = 0; r < r_; ++r) {
      const int64_t b = batchOf(r);
      if (b < 0 || b >= n_)
        throw KernelRunError(Status::error(
            ErrorCode::InvalidParam,
            "node '{}' (RoiAlign): batch index {} of roi {} is outside [0, {})", name_, b, r, n_));
    }
    cpu::parallelFor(r_, 1, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r)
        roi(r, x_ + batchOf(r) * c_ * h_ * w_, y_ + r * c_ * oh_ * ow_);
    });
  }
  std::string implName() const override { return "roi-align"; }

 private:
  int64_t batchOf(int64_t r) const {
    return bi64_ ? static_cast<const int64_t*>(bi_)[r] : static_cast<const int32_t*>(bi_)[r];
  }

  void roi(int64_t r, const float* img, float* out) const {
    const float* box = rois_ + r * 4;
    const double off = half_pixel_ ? 0.5 : 0.0;
    const double x0 = box[0] * static_cast<double>(scale_) - off;
    const double y0 = box[1] * static_cast<double>(scale_) - off;
    double rw = box[2] * static_cast<double>(scale_) - off - x0;
    double rh = box[3] * static_cast<double>(scale_) - off - y0;
    if (!half_pixel_) {
      rw = std::max(rw, 1.0);
      rh = std::max(rh, 1.0);
    }
    const double bh = rh / static_cast<double>(oh_), bw = rw / static_cast<double>(ow_);
    // Samples per bin side; capped where a double still counts exactly.
    auto gridOf = [&](double bin) {
      if (sr_ > 0) return static_cast<double>(sr_);
      const double g = std::ceil(bin);
      return g >= 1 ? std::min(g, 1e15) : 0.0;  // NaN and empty regions: no sample
    };
    const double gh = gridOf(bh), gw = gridOf(bw);
    const double count = std::max(gh * gw, 1.0);
    const int64_t plane = h_ * w_;
    for (int64_t ph = 0; ph < oh_; ++ph)
      for (int64_t pw = 0; pw < ow_; ++pw) {
        const double sy = y0 + static_cast<double>(ph) * bh, sx = x0 + static_cast<double>(pw) * bw;
        const Range ry = visible(sy, bh / gh, gh, h_), rx = visible(sx, bw / gw, gw, w_);
        for (int64_t c = 0; c < c_; ++c) {
          const float* p = img + c * plane;
          double acc = 0, hits = 0;
          float best = 0;
          for (int64_t iy = ry.lo; iy < ry.hi; ++iy) {
            const double y = sy + (static_cast<double>(iy) + 0.5) * bh / gh;
            for (int64_t ix = rx.lo; ix < rx.hi; ++ix) {
              const double x = sx + (static_cast<double>(ix) + 0.5) * bw / gw;
              const Sample s = bilinear(y, x, h_, w_);
              if (!s.hit) continue;
              if (max_) {
                float v = s.w[0] * p[s.pos[0]];
                for (int k = 1; k < 4; ++k) v = std::max(v, s.w[k] * p[s.pos[k]]);
                best = hits > 0 ? std::max(best, v) : v;
              } else {
                for (int k = 0; k < 4; ++k) acc += static_cast<double>(s.w[k]) * p[s.pos[k]];
              }
              hits += 1;
            }
          }
          // Samples that miss the image weigh 0: they add 0 to the average and offer 0 to the
          // max.
          if (max_ && hits > 0 && hits < gh * gw) best = std::max(best, 0.f);
          out[(c * oh_ + ph) * ow_ + pw] = max_ ? best : static_cast<float>(acc / count);
        }
      }
  }

  const float* x_;
  const float* rois_;
  const void* bi_;
  bool bi64_;
  float* y_;
  std::string name_;
  int64_t n_ = 0, c_ = 0, h_ = 0, w_ = 0, r_ = 0, oh_ = 1, ow_ = 1, sr_ = 0;
  float scale_ = 1.f;
  bool max_ = false, half_pixel_ = true;
};

Result<std::unique_ptr<Kernel>> createRoiAlignKernel(const KernelInit& k) {
  return std::unique_ptr<Kernel>(std::make_unique<RoiAlignKernel>(k));
}

}  // namespace

const OpDef& defRoiAlign() {
  static const OpDef d =
      OpDef("RoiAlign")
          .kernel(createRoiAlignKernel)
          .onnx(10)
          .cann("ROIAlign")
          .inputs(3, 3)
          .inferShape(inferRoiAlign)
          .flops([](const ir::Node& n) { return n.outputs[0]->numel() * 4 * 8; })
          .summary(
              "per region, an output_height x output_width grid of bins, each the avg or max of "
              "bilinear samples; half_pixel/output_half_pixel, sampling_ratio, spatial_scale");
  return d;
}

}  // namespace asc::ops
