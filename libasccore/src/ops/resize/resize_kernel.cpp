// resize_kernel.cpp: nearest, (multi-)linear and cubic resampling with every ONNX coordinate
// transformation mode, tf_crop_and_resize (roi, extrapolation_value) included. Per dimension and
// output coordinate the kernel precomputes its taps (source index, weight); an output element is
// the weighted sum over the product of its dimensions' taps.
#include "resize_kernel.h"

#include <algorithm>
#include <cmath>

#include "ops/op_util.h"
#include "ops/dnnl_util.h"
#include "cpu/parallel.h"

namespace asc::ops {
namespace {

struct Tap {
  int64_t index;
  float weight;
};

// `out_len` is the resized length as the spec defines it: in * scale when scales were given
// (not floored), else the output size; `out` the output size.
double sourceCoord(const std::string& mode, int64_t x, double scale, int64_t in, double out_len,
                   int64_t out) {
  const double xd = static_cast<double>(x);
  if (mode == "half_pixel") return (xd + 0.5) / scale - 0.5;
  if (mode == "half_pixel_symmetric") {  // Resize-19: half_pixel, centred when out is rounded
    const double adjustment = static_cast<double>(out) / out_len;
    const double offset = static_cast<double>(in) / 2 * (1 - adjustment);
    return offset + (xd + 0.5) / scale - 0.5;
  }
  if (mode == "pytorch_half_pixel") return out_len > 1 ? (xd + 0.5) / scale - 0.5 : 0.0;
  if (mode == "align_corners")
    return out_len == 1 ? 0.0 : xd * static_cast<double>(in - 1) / (out_len - 1);
  if (mode == "tf_half_pixel_for_nn") return (xd + 0.5) / scale;
  return xd / scale;  // asymmetric
}

int64_t nearestIndex(const std::string& mode, double x) {
  if (mode == "floor") return static_cast<int64_t>(std::floor(x));
  if (mode == "ceil") return static_cast<int64_t>(std::ceil(x));
  const double f = std::floor(x);
  if (x - f == 0.5) return static_cast<int64_t>(mode == "round_prefer_ceil" ? f + 1 : f);
  return static_cast<int64_t>(std::round(x));
}

double cubicWeight(double t, double a) {
  t = std::fabs(t);
  if (t <= 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
  if (t < 2) return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
  return 0;
}

// Resize-18 antialias when downscaling (s = scale < 1): the linear or cubic filter is stretched
// by 1 / s, so 2 * (support - start) input indices around the source coordinate x contribute,
// start = floor(-support / s) + 1 counted from the index left of x (x - 1 when x is whole), each
// with f((j - x) * s), normalized. An index off the input reads the edge value, or with
// exclude_outside its weight is dropped and the rest renormalized (ONNX's definition; ONNX
// Runtime gives the same).
std::vector<Tap> antialiasTaps(double x, int64_t in, double s, bool cubic, double a, bool exclude) {
  const int support = cubic ? 2 : 1;
  const int64_t start = static_cast<int64_t>(std::floor(-support / s)) + 1;
  const int64_t n = 2 * (support - start);
  const double fl = std::floor(x);
  const int64_t left = static_cast<int64_t>(fl == x ? x - 1 : fl);
  std::vector<std::pair<int64_t, double>> ws;
  double sum = 0;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t j = left + start + k;
    const double t = (static_cast<double>(j) - x) * s;
    const double w = cubic ? cubicWeight(t, a) : std::max(0.0, 1 - std::fabs(t));
    ws.push_back({j, w});
    sum += w;
  }
  if (exclude) {  // normalize, drop the outside weights, normalize again
    double kept = 0;
    for (auto& [j, w] : ws) kept += (j < 0 || j >= in) ? 0 : w / sum;
    sum *= kept;
    for (auto& [j, w] : ws)
      if (j < 0 || j >= in) w = 0;
  }
  std::vector<Tap> taps;
  for (const auto& [j, w] : ws) {
    if (w == 0 || sum == 0) continue;
    const int64_t idx = std::clamp<int64_t>(j, 0, in - 1);
    auto same =
        std::find_if(taps.begin(), taps.end(), [&](const Tap& t) { return t.index == idx; });
    if (same != taps.end())
      same->weight += static_cast<float>(w / sum);
    else
      taps.push_back({idx, static_cast<float>(w / sum)});
  }
  if (taps.empty()) taps.push_back({std::clamp<int64_t>(left, 0, in - 1), 0.f});
  return taps;
}

class ResizeKernel : public Kernel {
 public:
  Status init(const KernelInit& k) {
    const ir::Node& n = k.node;
    const ir::Shape& x = k.inputs[0].shape();
    const ir::Shape& y = k.outputs[0].shape();
    const bool upsample = n.op_type == "Upsample";
    std::string mode = n.attrs.getString("mode", "nearest");
    if (mode == "bilinear" || mode == "trilinear") mode = "linear";
    const std::string coord =
        upsample ? "asymmetric" : n.attrs.getString("coordinate_transformation_mode", "half_pixel");
    const std::string nearest =
        upsample ? "floor" : n.attrs.getString("nearest_mode", "round_prefer_floor");
    const double a = n.attrs.getFloat("cubic_coeff_a", -0.75f);
    const bool exclude = n.attrs.getInt("exclude_outside", 0) != 0;
    const bool antialias = n.attrs.getInt("antialias", 0) != 0 && mode != "nearest";
    // tf_crop_and_resize samples the region roi = [starts..., ends...] (fractions of each dim);
    // an output whose source lies outside the input takes extrapolation_value.
    const bool crop = coord == "tf_crop_and_resize";
    const auto roi = n.attrs.getFloats("roi");
    if (crop && roi.size() != 2 * x.size())
      return Status::error(ErrorCode::InvalidModel,
                           "node '{}': tf_crop_and_resize needs roi with {} values, it has {}",
                           n.name, 2 * x.size(), roi.size());
    extrapolation_ = n.attrs.getFloat("extrapolation_value", 0.f);
    auto scales = n.attrs.getFloats("scales");
    in_ = k.inputs[0].f32();
    out_ = static_cast<float*>(k.outputs[0].data);
    in_shape_ = x;
    out_shape_ = y;
    in_strides_ = stridesOf(x);
    taps_.resize(x.size());
    for (size_t d = 0; d < x.size(); ++d) {
      const int64_t in = x[d], out = y[d];
      const double scale = scales.size() == x.size()
                               ? scales[d]
                               : static_cast<double>(out) / static_cast<double>(in);
      taps_[d].resize(out);
      for (int64_t o = 0; o < out; ++o) {
        auto& t = taps_[d][o];
        const bool whole = !crop || (roi[d] == 0.f && roi[d + x.size()] == 1.f);
        if (in == out && scale == 1.0 && whole) {
          t.push_back({o, 1.f});
          continue;
        }
        const double out_len =
            scales.size() == x.size() ? static_cast<double>(in) * scale : static_cast<double>(out);
        double src = 0;
        if (crop) {
          const double start = roi[d], end = roi[d + x.size()], span = double(in - 1);
          src = out > 1 ? start * span + double(o) * (end - start) * span / double(out - 1)
                        : 0.5 * (start + end) * span;
          if (!(src >= 0 && src <= span)) {  // outside (or NaN): extrapolation_value
            t.push_back({kOutside, 0.f});
            continue;
          }
        } else {
          src = sourceCoord(coord, o, scale, in, out_len, out);
        }
        if (antialias && scale < 1.0) {
          t = antialiasTaps(src, in, scale, mode == "cubic", a, exclude);
        } else if (mode == "nearest") {
          int64_t i = nearestIndex(nearest, src);
          t.push_back({std::clamp<int64_t>(i, 0, in - 1), 1.f});
        } else if (mode == "linear") {
          src = std::clamp(src, 0.0, static_cast<double>(in - 1));
          int64_t i0 = static_cast<int64_t>(std::floor(src));
          int64_t i1 = std::min(i0 + 1, in - 1);
          float w1 = static_cast<float>(src - static_cast<double>(i0));
          t.push_back({i0, 1.f - w1});
          if (w1 != 0.f) t.push_back({i1, w1});
        } else if (mode == "cubic") {
          const double f = std::floor(src);
          double sum = 0;
          std::vector<std::pair<int64_t, double>> ws;
          for (int64_t j = -1; j <= 2; ++j) {
            int64_t idx = static_cast<int64_t>(f) + j;
            double w = cubicWeight(src - static_cast<double>(idx), a);
            if (exclude && (idx < 0 || idx >= in)) w = 0;
            ws.push_back({std::clamp<int64_t>(idx, 0, in - 1), w});
            sum += w;
          }
          for (auto& [idx, w] : ws)
            t.push_back({idx, static_cast<float>(exclude && sum != 0 ? w / sum : w)});
        } else {
          return Status::error(ErrorCode::NotImplemented, "node '{}': resize mode '{}'", n.name,
                               mode);
        }
      }
    }
    planar_ = x.size() >= 2;
    for (size_t d = 0; d + 2 < x.size() && planar_; ++d)
      planar_ = x[d] == y[d] && taps_[d].size() == static_cast<size_t>(y[d]) &&
                std::all_of(taps_[d].begin(), taps_[d].end(), [&](const std::vector<Tap>& t) {
                  return t.size() == 1 && t[0].weight == 1.f;
                });
    if (planar_)
      for (size_t d = 0; d + 2 < x.size(); ++d)
        for (int64_t o = 0; o < y[d]; ++o) planar_ = planar_ && taps_[d][o][0].index == o;
    return Status::ok();
  }

  void run() override {
    if (planar_) return runPlanar();
    const int64_t total = ir::numElements(out_shape_);
    const size_t r = out_shape_.size();
    cpu::parallelFor(total, 1024, [&](int64_t b, int64_t e) {
      std::vector<int64_t> idx(r);
      for (int64_t o = b; o < e; ++o) {
        int64_t rem = o;
        for (int64_t d = static_cast<int64_t>(r) - 1; d >= 0; --d) {
          idx[d] = rem % out_shape_[d];
          rem /= out_shape_[d];
        }
        out_[o] = static_cast<float>(accumulate(idx, 0, 0));
      }
    });
  }
  std::string implName() const override { return planar_ ? "resize-2d" : "resize"; }

  // Only the last two dims change (images): per plane and output row, combine the row taps
  // with precomputed column taps.
  void runPlanar() {
    const size_t r = in_shape_.size();
    const int64_t ih = in_shape_[r - 2], iw = in_shape_[r - 1];
    const int64_t oh = out_shape_[r - 2], ow = out_shape_[r - 1];
    const int64_t planes = ir::numElements(in_shape_) / (ih * iw);
    const auto& ty = taps_[r - 2];
    const auto& tx = taps_[r - 1];
    cpu::parallelFor(planes * oh, 4, [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t) {
        const int64_t p = t / oh, y = t % oh;
        const float* src = in_ + p * ih * iw;
        float* dst = out_ + (p * oh + y) * ow;
        for (int64_t x = 0; x < ow; ++x) {
          float acc = 0.f;
          if (ty[y][0].index == kOutside || tx[x][0].index == kOutside) {
            dst[x] = extrapolation_;
            continue;
          }
          for (const Tap& a : ty[y]) {
            const float* row = src + a.index * iw;
            float s = 0.f;
            for (const Tap& c : tx[x]) s += c.weight * row[c.index];
            acc += a.weight * s;
          }
          dst[x] = acc;
        }
      }
    });
  }

 private:
  bool planar_ = false;
  double accumulate(const std::vector<int64_t>& idx, size_t d, int64_t off) const {
    if (d == idx.size()) return in_[off];
    if (taps_[d][idx[d]][0].index == kOutside) return extrapolation_;
    double s = 0;
    for (const Tap& t : taps_[d][idx[d]])
      s += t.weight * accumulate(idx, d + 1, off + t.index * in_strides_[d]);
    return s;
  }

  static constexpr int64_t kOutside = -1;  // a tap list of one: the source is off the input
  float extrapolation_ = 0.f;
  const float* in_ = nullptr;
  float* out_ = nullptr;
  ir::Shape in_shape_, out_shape_;
  std::vector<int64_t> in_strides_;
  std::vector<std::vector<std::vector<Tap>>> taps_;
};

// Linear upsampling of image dims with half-pixel centres is what oneDNN's resampling computes
// (source = (dst + 0.5) / factor - 0.5, clamped at the borders), and it works on blocked
// tensors, so the tensor needs no reorder around the op. (Downsampling differs: oneDNN does not
// interpolate between the two nearest sources there, so it stays on the plain kernel.)
bool dnnlLinear(const ir::Node& n) {
  if (n.op_type != "Resize" || n.attrs.getString("mode", "nearest") != "linear" ||
      n.attrs.getInt("antialias", 0) != 0)
    return false;
  const ir::Shape& x = n.inputs[0]->shape;
  const ir::Shape& y = n.outputs[0]->shape;
  if ((x.size() != 4 && x.size() != 5) || x[0] != y[0] || x[1] != y[1] ||
      n.inputs[0]->dtype != ir::DType::F32)
    return false;
  for (size_t i = 2; i < x.size(); ++i)
    if (y[i] < x[i]) return false;
  // oneDNN maps coordinates by out / in; ONNX by the scale given, which differs when in * scale
  // is not whole (1.7 over 6 rows gives 10 rows, and 10 / 6 is not 1.7).
  const auto scales = n.attrs.getFloats("scales");
  if (scales.size() == x.size())
    for (size_t i = 2; i < x.size(); ++i)
      if (static_cast<double>(scales[i]) * static_cast<double>(x[i]) != static_cast<double>(y[i]))
        return false;
  const std::string c = n.attrs.getString("coordinate_transformation_mode", "half_pixel");
  if (c == "half_pixel") return true;
  if (c != "pytorch_half_pixel") return false;
  for (size_t i = 2; i < y.size(); ++i)
    if (y[i] <= 1) return false;
  return true;
}

class DnnlResize : public cpu::PrimitiveKernel {
 public:
  using PrimitiveKernel::PrimitiveKernel;
  Status init(const KernelInit& k) {
    const ir::Shape& x = k.inputs[0].shape();
    const ir::Shape& y = k.outputs[0].shape();
    auto scales = k.node.attrs.getFloats("scales");
    std::vector<float> factors;
    for (size_t i = 2; i < x.size(); ++i)
      factors.push_back(scales.size() == x.size()
                            ? scales[i]
                            : static_cast<float>(y[i]) / static_cast<float>(x[i]));
    try {
      auto src = cpu::memOf(k.inputs[0], env_.engine);
      auto dst = cpu::memOf(k.outputs[0], env_.engine);
      dnnl::resampling_forward::desc d(dnnl::prop_kind::forward_inference,
                                       dnnl::algorithm::resampling_linear, factors, src.get_desc(),
                                       dst.get_desc());
      dnnl::resampling_forward::primitive_desc pd(d, env_.engine);
      set(dnnl::resampling_forward(pd), pd, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    } catch (const dnnl::error& e) {
      return cpu::dnnlError(k.node, e);
    }
    return Status::ok();
  }
};

}  // namespace

Layout resizeLayout(const ir::Node& n, const std::vector<Layout>& in) {
  return dnnlLinear(n) ? in[0] : Layout::Plain;
}

Result<std::unique_ptr<Kernel>> createResizeKernel(const KernelInit& k) {
  if (dnnlLinear(k.node)) {
    auto d = std::make_unique<DnnlResize>(k.env);
    ASC_RETURN_IF_ERROR(d->init(k));
    return std::unique_ptr<Kernel>(std::move(d));
  }
  if (k.inputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}': resize of {} is not supported",
                         k.node.name, ir::dtypeName(k.inputs[0].dtype()));
  auto r = std::make_unique<ResizeKernel>();
  ASC_RETURN_IF_ERROR(r->init(k));
  return std::unique_ptr<Kernel>(std::move(r));
}

}  // namespace asc::ops
