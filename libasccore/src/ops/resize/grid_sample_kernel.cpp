// grid_sample_kernel.cpp: GridSample on [N, C, H, W] with a grid [N, Hout, Wout, 2] of (x, y) in
// [-1, 1], as PyTorch's grid_sample (which ONNX's GridSample follows): the coordinates are
// unnormalized (align_corners: -1 and 1 are the corner pixels' centres; otherwise their outer
// edges); padding "border" clips them into the image and "reflection" reflects them off its
// edges (then clips); nearest rounds halves to even, bilinear blends 4 pixels, bicubic 16 with
// A = -0.75. Pixels outside the image read 0; bicubic applies border/reflection to each tap.
#include "grid_sample_kernel.h"

#include <algorithm>
#include <cmath>

namespace asc::ops {
namespace {

enum class Mode { Nearest, Bilinear, Bicubic };
enum class Pad { Zeros, Border, Reflection };

class GridSample : public Kernel {
 public:
  explicit GridSample(const KernelInit& k)
      : x_(k.inputs[0].f32()),
        grid_(k.inputs[1].f32()),
        y_(static_cast<float*>(k.outputs[0].data)) {
    const ir::Shape& s = k.inputs[0].shape();
    const ir::Shape& g = k.inputs[1].shape();
    N_ = s[0];
    C_ = s[1];
    H_ = s[2];
    W_ = s[3];
    Ho_ = g[1];
    Wo_ = g[2];
    const std::string m = k.node.attrs.getString("mode", "bilinear");
    mode_ = m == "nearest" ? Mode::Nearest : m == "bicubic" ? Mode::Bicubic : Mode::Bilinear;
    const std::string p = k.node.attrs.getString("padding_mode", "zeros");
    pad_ = p == "border" ? Pad::Border : p == "reflection" ? Pad::Reflection : Pad::Zeros;
    align_ = k.node.attrs.getInt("align_corners", 0) != 0;
  }

  void run() override {
    for (int64_t n = 0; n < N_; ++n)
      for (int64_t i = 0; i < Ho_; ++i)
        for (int64_t j = 0; j < Wo_; ++j) {
          const float* g = grid_ + ((n * Ho_ + i) * Wo_ + j) * 2;
          double x = unnormalize(g[0], W_), y = unnormalize(g[1], H_);
          if (mode_ != Mode::Bicubic) {
            x = fixCoord(x, W_);
            y = fixCoord(y, H_);
          }
          for (int64_t c = 0; c < C_; ++c) {
            const float* img = x_ + (n * C_ + c) * H_ * W_;
            y_[((n * C_ + c) * Ho_ + i) * Wo_ + j] = static_cast<float>(sample(img, x, y));
          }
        }
  }
  std::string implName() const override { return "grid-sample"; }

 private:
  double unnormalize(double v, int64_t size) const {
    return align_ ? (v + 1) / 2 * static_cast<double>(size - 1)
                  : ((v + 1) * static_cast<double>(size) - 1) / 2;
  }
  // Reflects v into [lo, hi] (repeatedly, like a mirror pair).
  static double reflect(double v, double lo, double hi) {
    const double span = hi - lo;
    if (span <= 0) return lo;
    double d = std::fabs(v - lo);
    const double flips = std::floor(d / span);
    const double r = d - flips * span;
    return static_cast<int64_t>(flips) % 2 == 0 ? lo + r : hi - r;
  }
  // Border/reflection padding of one coordinate (clipped into the image).
  double fixCoord(double v, int64_t size) const {
    const double last = static_cast<double>(size - 1);
    if (pad_ == Pad::Border) return std::clamp(v, 0.0, last);
    if (pad_ == Pad::Reflection) {
      v = align_ ? reflect(v, 0, last) : reflect(v, -0.5, static_cast<double>(size) - 0.5);
      return std::clamp(v, 0.0, last);
    }
    return v;
  }
  double at(const float* img, int64_t r, int64_t c) const {
    if (r < 0 || r >= H_ || c < 0 || c >= W_) return 0.0;
    return img[r * W_ + c];
  }
  // A bicubic tap: padding applies to the tap's own coordinate.
  double tap(const float* img, int64_t r, int64_t c) const {
    if (pad_ == Pad::Zeros) return at(img, r, c);
    const int64_t rr = static_cast<int64_t>(fixCoord(static_cast<double>(r), H_));
    const int64_t cc = static_cast<int64_t>(fixCoord(static_cast<double>(c), W_));
    return at(img, rr, cc);
  }
  static void cubicWeights(double t, double w[4]) {
    const double A = -0.75;
    auto near = [A](double d) { return ((A + 2) * d - (A + 3)) * d * d + 1; };
    auto far = [A](double d) { return ((A * d - 5 * A) * d + 8 * A) * d - 4 * A; };
    w[0] = far(t + 1);
    w[1] = near(t);
    w[2] = near(1 - t);
    w[3] = far(2 - t);
  }
  double sample(const float* img, double x, double y) const {
    if (mode_ == Mode::Nearest)
      return at(img, static_cast<int64_t>(std::nearbyint(y)),
                static_cast<int64_t>(std::nearbyint(x)));
    const double fx = std::floor(x), fy = std::floor(y);
    const int64_t x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy);
    const double tx = x - fx, ty = y - fy;
    if (mode_ == Mode::Bilinear)
      return at(img, y0, x0) * (1 - tx) * (1 - ty) + at(img, y0, x0 + 1) * tx * (1 - ty) +
             at(img, y0 + 1, x0) * (1 - tx) * ty + at(img, y0 + 1, x0 + 1) * tx * ty;
    double wx[4], wy[4];
    cubicWeights(tx, wx);
    cubicWeights(ty, wy);
    double s = 0;
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) s += wy[a] * wx[b] * tap(img, y0 - 1 + a, x0 - 1 + b);
    return s;
  }

  const float* x_;
  const float* grid_;
  float* y_;
  int64_t N_ = 0, C_ = 0, H_ = 0, W_ = 0, Ho_ = 0, Wo_ = 0;
  Mode mode_ = Mode::Bilinear;
  Pad pad_ = Pad::Zeros;
  bool align_ = false;
};

}  // namespace

Result<std::unique_ptr<Kernel>> createGridSampleKernel(const KernelInit& k) {
  if (k.inputs[0].dtype() != ir::DType::F32 || k.inputs[1].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}' (GridSample): {} is not supported",
                         k.node.name, ir::dtypeName(k.inputs[0].dtype()));
  return std::unique_ptr<Kernel>(std::make_unique<GridSample>(k));
}

}  // namespace asc::ops
