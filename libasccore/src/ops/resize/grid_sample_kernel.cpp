// grid_sample_kernel.cpp: GridSample on [N, C, H, W] with a grid [N, Hout, Wout, 2] of (x, y),
// or on volumes [N, C, D, H, W] with a grid [N, Dout, Hout, Wout, 3] of (x, y, z), each in
// [-1, 1], as PyTorch's grid_sample (which ONNX's GridSample follows): the coordinates are
// unnormalized (align_corners: -1 and 1 are the corner pixels' centres; otherwise their outer
// edges); padding "border" clips them into the image and "reflection" reflects them off its
// edges (then clips); nearest rounds halves to even, (bi/tri)linear blends the 2 neighbours
// along each dim, (bi/tri)cubic the 4 along each dim with A = -0.75. Pixels outside the image
// read 0; cubic applies border/reflection to each tap. Each output point's taps (source offset
// and weight, the product over dims) are found once and applied to every channel.
#include "grid_sample_kernel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "cpu/parallel.h"

namespace asc::ops {
namespace {

enum class Mode { Nearest, Linear, Cubic };
enum class Pad { Zeros, Border, Reflection };

struct Tap {
  int64_t offset;  // into one channel's image; -1 reads zero
  double weight;
};

class GridSample : public Kernel {
 public:
  explicit GridSample(const KernelInit& k)
      : x_(k.inputs[0].f32()),
        grid_(k.inputs[1].f32()),
        y_(static_cast<float*>(k.outputs[0].data)) {
    const ir::Shape& s = k.inputs[0].shape();
    const ir::Shape& g = k.inputs[1].shape();
    nd_ = static_cast<int>(s.size()) - 2;
    N_ = s[0];
    C_ = s[1];
    for (int d = 0; d < nd_; ++d) {
      size_[d] = s[2 + d];
      image_ *= s[2 + d];
      points_ *= g[1 + d];
    }
    const std::string m = k.node.attrs.getString("mode", "bilinear");
    mode_ = m == "nearest" ? Mode::Nearest : m == "bicubic" ? Mode::Cubic : Mode::Linear;
    const std::string p = k.node.attrs.getString("padding_mode", "zeros");
    pad_ = p == "border" ? Pad::Border : p == "reflection" ? Pad::Reflection : Pad::Zeros;
    align_ = k.node.attrs.getInt("align_corners", 0) != 0;
  }

  void run() override {
    cpu::parallelFor(N_ * points_, 64, [&](int64_t b, int64_t e) {
      std::vector<Tap> taps;
      for (int64_t np = b; np < e; ++np) {
        const int64_t n = np / points_, p = np % points_;
        pointTaps(grid_ + np * nd_, &taps);
        for (int64_t c = 0; c < C_; ++c) {
          const float* img = x_ + (n * C_ + c) * image_;
          double s = 0;
          for (const Tap& t : taps)
            if (t.offset >= 0) s += t.weight * img[t.offset];
          y_[(n * C_ + c) * points_ + p] = static_cast<float>(s);
        }
      }
    });
  }
  std::string implName() const override { return nd_ == 3 ? "grid-sample-3d" : "grid-sample"; }

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
  static void cubicWeights(double t, double w[4]) {
    const double A = -0.75;
    auto near = [A](double d) { return ((A + 2) * d - (A + 3)) * d * d + 1; };
    auto far = [A](double d) { return ((A * d - 5 * A) * d + 8 * A) * d - 4 * A; };
    w[0] = far(t + 1);
    w[1] = near(t);
    w[2] = near(1 - t);
    w[3] = far(2 - t);
  }
  // The taps along spatial dim d for coordinate v: (index or -1 outside, weight).
  int dimTaps(int d, double v, std::array<std::pair<int64_t, double>, 4>* out) const {
    const int64_t size = size_[d];
    auto inside = [size](int64_t i) { return i >= 0 && i < size ? i : int64_t{-1}; };
    if (mode_ != Mode::Cubic) v = fixCoord(v, size);
    if (mode_ == Mode::Nearest) {
      (*out)[0] = {inside(static_cast<int64_t>(std::nearbyint(v))), 1.0};
      return 1;
    }
    const double f = std::floor(v), t = v - f;
    const int64_t i0 = static_cast<int64_t>(f);
    if (mode_ == Mode::Linear) {
      (*out)[0] = {inside(i0), 1 - t};
      (*out)[1] = {inside(i0 + 1), t};
      return 2;
    }
    double w[4];
    cubicWeights(t, w);
    for (int a = 0; a < 4; ++a) {
      int64_t i = i0 - 1 + a;
      if (pad_ != Pad::Zeros) i = static_cast<int64_t>(fixCoord(static_cast<double>(i), size));
      (*out)[a] = {inside(i), w[a]};
    }
    return 4;
  }
  // Every tap of one output point: the product of the per-dim taps. The grid's last dim lists
  // the coordinates innermost first (x for W, then y for H, then z for D).
  void pointTaps(const float* g, std::vector<Tap>* taps) const {
    std::array<std::array<std::pair<int64_t, double>, 4>, 3> per;
    std::array<int, 3> count{};
    for (int d = 0; d < nd_; ++d)
      count[d] = dimTaps(d, unnormalize(g[nd_ - 1 - d], size_[d]), &per[d]);
    taps->clear();
    taps->push_back({0, 1.0});
    for (int d = 0; d < nd_; ++d) {
      std::vector<Tap> next;
      next.reserve(taps->size() * static_cast<size_t>(count[d]));
      for (const Tap& t : *taps)
        for (int a = 0; a < count[d]; ++a) {
          const auto [i, w] = per[d][a];
          const bool out = t.offset < 0 || i < 0;
          next.push_back({out ? -1 : t.offset * size_[d] + i, t.weight * w});
        }
      taps->swap(next);
    }
  }

  const float* x_;
  const float* grid_;
  float* y_;
  int nd_ = 2;
  int64_t N_ = 0, C_ = 0, image_ = 1, points_ = 1;
  std::array<int64_t, 3> size_{};
  Mode mode_ = Mode::Linear;
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
