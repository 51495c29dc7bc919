// pool_kernel.cpp: MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool on oneDNN's
// pooling (any layout). ceil_mode is expressed as extra right padding: the output size is the
// one shape inference computed, and the padding makes oneDNN produce exactly that size.
// MaxPool with its Indices output, or of uint8/int8 data, is a direct loop over the windows
// (plain layout): each index is the maximum's position in the whole input flattened row-major
// (storage_order 0) or with the spatial dims in column-major order (storage_order 1); padding
// never wins, and the first of equal maxima does.
#include "pool_kernel.h"

#include <immintrin.h>

#include <cmath>
#include <limits>

#include "cpu/features.h"
#include "cpu/parallel.h"
#include "ops/dnnl_util.h"
#include "ops/op_util.h"

namespace asc::ops {
namespace {

class PoolKernel : public cpu::PrimitiveKernel {
 public:
  using PrimitiveKernel::PrimitiveKernel;
  Status init(const KernelInit& k) {
    const ir::Node& n = k.node;
    const TensorRef& x = k.inputs[0];
    const TensorRef& y = k.outputs[0];
    const size_t spatial = x.shape().size() - 2;
    const OpDef& d = defOf(n);
    const bool global = d.isGlobalPool();
    const bool is_max = d.poolKind() == PoolKind::Max;
    dnnl::memory::dims kernel, strides, dil, pad_l, pad_r;
    auto ks = n.attrs.getInts("kernel_shape");
    auto st = n.attrs.getInts("strides", std::vector<int64_t>(spatial, 1));
    auto dl = n.attrs.getInts("dilations", std::vector<int64_t>(spatial, 1));
    auto pads = n.attrs.getInts("pads", std::vector<int64_t>(2 * spatial, 0));
    for (size_t i = 0; i < spatial; ++i) {
      const int64_t in = x.shape()[2 + i], out = y.shape()[2 + i];
      int64_t kk = global ? in : ks.at(i);
      int64_t s = global ? 1 : st[i];
      int64_t d = global ? 1 : dl[i];
      int64_t pl = global ? 0 : pads[i];
      kernel.push_back(kk);
      strides.push_back(s);
      dil.push_back(d - 1);
      pad_l.push_back(pl);
      pad_r.push_back((out - 1) * s + (kk - 1) * d + 1 - in - pl);
    }
    const bool include_pad = n.attrs.getInt("count_include_pad", 0) != 0;
    auto alg = is_max        ? dnnl::algorithm::pooling_max
               : include_pad ? dnnl::algorithm::pooling_avg_include_padding
                             : dnnl::algorithm::pooling_avg_exclude_padding;
    try {
      auto src = cpu::memOf(x, env_.engine);
      auto dst = cpu::memOf(y, env_.engine);
      dnnl::pooling_v2_forward::desc d(dnnl::prop_kind::forward_inference, alg, src.get_desc(),
                                       dst.get_desc(), strides, kernel, dil, pad_l, pad_r);
      dnnl::pooling_v2_forward::primitive_desc pd(d, env_.engine);
      set(dnnl::pooling_v2_forward(pd), pd, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    } catch (const dnnl::error& e) {
      return cpu::dnnlError(n, e);
    }
    return Status::ok();
  }
};

// One output row of a 2-D max pooling over nChw8c: `plane` is one 8-channel block [H][W][8],
// rows [ih0, ih1) the ones inside the input; each output holds the 8 lanes' maxima over its
// window's columns inside the input (padding never wins). One AVX register a pixel where the CPU
// has AVX, two SSE ones elsewhere (x86-64's baseline); the kernel picks one at creation.
template <typename Vec, typename Load, typename Max, typename Store>
inline void maxPoolRow8(const float* plane, int64_t W, int64_t ih0, int64_t ih1, float* out,
                        int64_t OW, int64_t kw, int64_t sw, int64_t pw, Vec lowest, Load load,
                        Max max, Store store) {
  constexpr int kLanes = sizeof(Vec) / sizeof(float);
  for (int64_t ow = 0; ow < OW; ++ow) {
    const int64_t iw0 = std::max<int64_t>(0, ow * sw - pw);
    const int64_t iw1 = std::min<int64_t>(W, ow * sw - pw + kw);
    for (int half = 0; half < 8; half += kLanes) {
      Vec m = lowest;
      for (int64_t ih = ih0; ih < ih1; ++ih) {
        const float* p = plane + (ih * W + iw0) * 8 + half;
        for (int64_t iw = iw0; iw < iw1; ++iw, p += 8) m = max(m, load(p));
      }
      store(out + ow * 8 + half, m);
    }
  }
}

using MaxPoolRowFn = void (*)(const float*, int64_t, int64_t, int64_t, float*, int64_t, int64_t,
                              int64_t, int64_t);

__attribute__((target("avx"))) void maxPoolRowAvx(const float* plane, int64_t W, int64_t ih0,
                                                  int64_t ih1, float* out, int64_t OW, int64_t kw,
                                                  int64_t sw, int64_t pw) {
  maxPoolRow8(
      plane, W, ih0, ih1, out, OW, kw, sw, pw,
      _mm256_set1_ps(-std::numeric_limits<float>::infinity()),
      [](const float* p) { return _mm256_loadu_ps(p); },
      [](__m256 a, __m256 b) { return _mm256_max_ps(a, b); },
      [](float* p, __m256 v) { _mm256_storeu_ps(p, v); });
}

void maxPoolRowSse(const float* plane, int64_t W, int64_t ih0, int64_t ih1, float* out, int64_t OW,
                   int64_t kw, int64_t sw, int64_t pw) {
  maxPoolRow8(
      plane, W, ih0, ih1, out, OW, kw, sw, pw, _mm_set1_ps(-std::numeric_limits<float>::infinity()),
      [](const float* p) { return _mm_loadu_ps(p); },
      [](__m128 a, __m128 b) { return _mm_max_ps(a, b); },
      [](float* p, __m128 v) { _mm_storeu_ps(p, v); });
}

// A 2-D pooling window from the node's attributes: kernel, strides and the leading pads (the
// output size already accounts for the trailing ones).
struct Window2d {
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0;
  Window2d() = default;
  explicit Window2d(const ir::Attrs& a) {
    const auto ks = a.getInts("kernel_shape");
    const auto st = a.getInts("strides", {1, 1});
    const auto pads = a.getInts("pads", {0, 0, 0, 0});
    kh = ks[0];
    kw = ks[1];
    sh = st[0];
    sw = st[1];
    ph = pads[0];
    pw = pads[1];
  }
  // The input rows [*b, *e) of output row o, of an input of `n` rows, inside the input.
  void rows(int64_t o, int64_t n, int64_t* b, int64_t* e) const {
    *b = std::max<int64_t>(0, o * sh - ph);
    *e = std::min<int64_t>(n, o * sh - ph + kh);
  }
  void cols(int64_t o, int64_t n, int64_t* b, int64_t* e) const {
    *b = std::max<int64_t>(0, o * sw - pw);
    *e = std::min<int64_t>(n, o * sw - pw + kw);
  }
};

// 2-D MaxPool of fp32 nChw8c tensors (AVX2 CPUs' layout), undilated: a direct loop over each
// window, rows spread over the threads. oneDNN 2.6's jit:avx2 pooling took 0.40 ms for GoogLeNet's
// 3x3 stride-1 pool of 256 channels at 28x28 on 2 Zen 3 cores (docs/runtime.md).
class BlockedMaxPool : public Kernel {
 public:
  explicit BlockedMaxPool(const KernelInit& k) {
    const ir::Attrs& a = k.node.attrs;
    const ir::Shape& xs = k.inputs[0].shape();
    const ir::Shape& ys = k.outputs[0].shape();
    x_ = k.inputs[0].f32();
    y_ = static_cast<float*>(k.outputs[0].data);
    planes_ = xs[0] * ((xs[1] + 7) / 8);
    H_ = xs[2];
    W_ = xs[3];
    OH_ = ys[2];
    OW_ = ys[3];
    window_ = Window2d(a);
  }
  // Whether this kernel serves the node: 2-D, fp32, nChw8c, no Indices, no dilation.
  static bool serves(const KernelInit& k) {
    const ir::Attrs& a = k.node.attrs;
    const OpDef& d = defOf(k.node);
    if (d.poolKind() != PoolKind::Max || d.isGlobalPool() ||
        k.inputs[0].layout != Layout::Blocked || channelsLast() || blockSize() != 8 ||
        k.inputs[0].dtype() != ir::DType::F32 || k.inputs[0].shape().size() != 4 ||
        (k.outputs.size() > 1 && k.outputs[1].data))
      return false;
    for (int64_t d : a.getInts("dilations", {1, 1}))
      if (d != 1) return false;
    return a.getInts("kernel_shape").size() == 2;
  }
  void run() override {
    const int64_t rows = planes_ * OH_;
    // Threads only for outputs of at least 64 KiB.
    const int64_t grain = rows * OW_ * 32 < (int64_t(64) << 10) ? rows : 1;
    cpu::parallelFor(rows, grain, [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        const int64_t plane = r / OH_, oh = r % OH_;
        int64_t ih0, ih1;
        window_.rows(oh, H_, &ih0, &ih1);
        row_(x_ + plane * H_ * W_ * 8, W_, ih0, ih1, y_ + (plane * OH_ + oh) * OW_ * 8, OW_,
             window_.kw, window_.sw, window_.pw);
      }
    });
  }
  std::string implName() const override {
    return row_ == maxPoolRowAvx ? "direct:avx:nChw8c" : "direct:sse:nChw8c";
  }

 private:
  MaxPoolRowFn row_ = __builtin_cpu_supports("avx") ? maxPoolRowAvx : maxPoolRowSse;
  const float* x_ = nullptr;
  float* y_ = nullptr;
  int64_t planes_ = 0, H_ = 0, W_ = 0, OH_ = 0, OW_ = 0;
  Window2d window_;
};

// The taps of pooling windows over the spatial dims of an (N, C, spatial...) tensor: for output
// position o of a plane, each tap that lies inside the input (not in the padding), as a
// row-major offset in the plane. Any number of spatial dims.
class WindowWalk {
 public:
  WindowWalk(const ir::Attrs& a, const ir::Shape& xs, const ir::Shape& ys) : xs_(xs), ys_(ys) {
    const size_t spatial = xs.size() - 2;
    kernel_ = a.getInts("kernel_shape");
    strides_ = a.getInts("strides", std::vector<int64_t>(spatial, 1));
    dil_ = a.getInts("dilations", std::vector<int64_t>(spatial, 1));
    pads_ = a.getInts("pads", std::vector<int64_t>(2 * spatial, 0));
    opos_.resize(spatial);
    ipos_.resize(spatial);
    for (size_t d = 0; d < spatial; ++d) {
      in_plane_ *= xs[2 + d];
      out_plane_ *= ys[2 + d];
      window_ *= kernel_[d];
    }
  }
  int64_t inPlane() const { return in_plane_; }
  int64_t outPlane() const { return out_plane_; }
  template <typename F>
  void taps(int64_t o, F f) {
    const int64_t sp = static_cast<int64_t>(kernel_.size());
    for (int64_t d = sp - 1, r = o; d >= 0; --d) {
      opos_[d] = r % ys_[2 + d];
      r /= ys_[2 + d];
    }
    for (int64_t w = 0; w < window_; ++w) {
      bool inside = true;
      for (int64_t d = sp - 1, r = w; d >= 0; --d) {
        const int64_t kd = r % kernel_[d];
        r /= kernel_[d];
        ipos_[d] = opos_[d] * strides_[d] - pads_[d] + kd * dil_[d];
        inside = inside && ipos_[d] >= 0 && ipos_[d] < xs_[2 + d];
      }
      if (!inside) continue;
      int64_t at = 0;
      for (int64_t d = 0; d < sp; ++d) at = at * xs_[2 + d] + ipos_[d];
      f(at);
    }
  }

 private:
  ir::Shape xs_, ys_;
  std::vector<int64_t> kernel_, strides_, dil_, pads_;
  std::vector<int64_t> opos_, ipos_;  // output and input positions (scratch)
  int64_t in_plane_ = 1, out_plane_ = 1, window_ = 1;
};

// MaxPool as a loop over the output positions of each (n, c) plane.
template <typename T>
class LoopMaxPool : public Kernel {
 public:
  explicit LoopMaxPool(const KernelInit& k)
      : x_(k.inputs[0]), y_(k.outputs[0]), walk_(k.node.attrs, x_.shape(), y_.shape()) {
    if (k.outputs.size() > 1) idx_ = k.outputs[1];
    col_major_ = k.node.attrs.getInt("storage_order", 0) != 0;
  }
  void run() override {
    const ir::Shape& xs = x_.shape();
    const int64_t planes = xs[0] * xs[1];
    const int64_t in_plane = walk_.inPlane(), out_plane = walk_.outPlane();
    const T* x = static_cast<const T*>(x_.data);
    T* y = static_cast<T*>(y_.data);
    auto* idx = static_cast<int64_t*>(idx_.data);
    for (int64_t p = 0; p < planes; ++p)
      for (int64_t o = 0; o < out_plane; ++o) {
        T best = std::numeric_limits<T>::lowest();
        int64_t best_at = -1;
        walk_.taps(o, [&](int64_t at) {
          if (best_at < 0 || x[p * in_plane + at] > best) {
            best = x[p * in_plane + at];
            best_at = at;
          }
        });
        y[p * out_plane + o] = best;
        // A window whose taps all fall in the padding (dilated) has no maximum: index -1.
        if (idx)
          idx[p * out_plane + o] =
              best_at < 0 ? -1 : p * in_plane + (col_major_ ? colMajor(best_at) : best_at);
      }
  }
  std::string implName() const override { return "maxpool-loop"; }

 private:
  // The row-major offset `at` of a spatial position, re-expressed with the first spatial dim
  // varying fastest.
  int64_t colMajor(int64_t at) const {
    const ir::Shape& xs = x_.shape();
    int64_t res = 0;
    for (size_t d = 2; d < xs.size(); ++d) {
      int64_t below = 1;
      for (size_t e = d + 1; e < xs.size(); ++e) below *= xs[e];
      int64_t above = 1;
      for (size_t e = 2; e < d; ++e) above *= xs[e];
      res += (at / below) % xs[d] * above;
    }
    return res;
  }
  TensorRef x_, y_, idx_;
  WindowWalk walk_;
  bool col_major_ = false;
};

// LpPool / GlobalLpPool: (sum of |x|^p over the window's taps inside the input)^(1/p), padding
// counting as zeros; in double, p = 1 and 2 without pow.
class LoopLpPool : public Kernel {
 public:
  explicit LoopLpPool(const KernelInit& k)
      : x_(k.inputs[0]),
        y_(k.outputs[0]),
        walk_(k.node.attrs, x_.shape(), y_.shape()),
        p_(k.node.attrs.getInt("p", 2)) {}
  void run() override {
    const ir::Shape& xs = x_.shape();
    const int64_t planes = xs[0] * xs[1];
    const int64_t in_plane = walk_.inPlane(), out_plane = walk_.outPlane();
    const float* x = x_.f32();
    float* y = static_cast<float*>(y_.data);
    const double p = static_cast<double>(p_);
    for (int64_t pl = 0; pl < planes; ++pl)
      for (int64_t o = 0; o < out_plane; ++o) {
        double sum = 0;
        walk_.taps(o, [&](int64_t at) {
          const double v = std::fabs(static_cast<double>(x[pl * in_plane + at]));
          sum += p_ == 1 ? v : p_ == 2 ? v * v : std::pow(v, p);
        });
        y[pl * out_plane + o] = static_cast<float>(p_ == 1   ? sum
                                                   : p_ == 2 ? std::sqrt(sum)
                                                             : std::pow(sum, 1 / p));
      }
  }
  std::string implName() const override { return "lppool-loop"; }

 private:
  TensorRef x_, y_;
  WindowWalk walk_;
  int64_t p_;
};

// 2-D MaxPool of the channel Concat of `parts_` (fp32, channels-last) without the Concat: each
// output pixel's channels are the parts' pooled runs, side by side, every part read where its
// producer left it. Output rows spread over the threads.
class ConcatMaxPool : public Kernel {
 public:
  struct Part {
    const float* x;
    int64_t channels, offset;  // its channels, and where they start in the output's
  };
  ConcatMaxPool(const KernelInit& k, std::vector<Part> parts)
      : parts_(std::move(parts)), wide_(cpu::hasAvx512() && cpu::avx512Isa()) {
    const ir::Attrs& a = k.node.attrs;
    const ir::Shape& ys = k.outputs[0].shape();
    y_ = static_cast<float*>(k.outputs[0].data);
    N_ = ys[0];
    C_ = ys[1];
    OH_ = ys[2];
    OW_ = ys[3];
    H_ = k.inputs[0].shape()[2];
    W_ = k.inputs[0].shape()[3];
    window_ = Window2d(a);
  }
  void run() override {
    cpu::parallelFor(N_ * OH_, 1, [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) wide_ ? row512(r) : rowScalar(r);
    });
  }
  std::string implName() const override {
    return fmt::format("direct:{}:nhwc (reading the Concat's {} inputs)",
                       wide_ ? "avx512" : "scalar", parts_.size());
  }

 private:
  // The input rows and columns of output (oh, ow)'s window inside the input.
  void window(int64_t oh, int64_t ow, int64_t* h0, int64_t* h1, int64_t* w0, int64_t* w1) const {
    window_.rows(oh, H_, h0, h1);
    window_.cols(ow, W_, w0, w1);
  }
  ASC_AVX512 void row512(int64_t r) const {
    const int64_t n = r / OH_, oh = r % OH_;
    for (int64_t ow = 0; ow < OW_; ++ow) {
      int64_t h0, h1, w0, w1;
      window(oh, ow, &h0, &h1, &w0, &w1);
      float* out = y_ + ((n * OH_ + oh) * OW_ + ow) * C_;
      for (const Part& p : parts_) {
        const float* img = p.x + n * H_ * W_ * p.channels;
        for (int64_t c = 0; c < p.channels; c += 16) {
          const __mmask16 m = p.channels - c >= 16
                                  ? __mmask16(0xFFFF)
                                  : static_cast<__mmask16>((1u << (p.channels - c)) - 1);
          __m512 v = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
          for (int64_t ih = h0; ih < h1; ++ih)
            for (int64_t iw = w0; iw < w1; ++iw)
              v = _mm512_mask_max_ps(
                  v, m, v, _mm512_maskz_loadu_ps(m, img + (ih * W_ + iw) * p.channels + c));
          _mm512_mask_storeu_ps(out + p.offset + c, m, v);
        }
      }
    }
  }
  void rowScalar(int64_t r) const {
    const int64_t n = r / OH_, oh = r % OH_;
    for (int64_t ow = 0; ow < OW_; ++ow) {
      int64_t h0, h1, w0, w1;
      window(oh, ow, &h0, &h1, &w0, &w1);
      float* out = y_ + ((n * OH_ + oh) * OW_ + ow) * C_;
      for (const Part& p : parts_) {
        const float* img = p.x + n * H_ * W_ * p.channels;
        for (int64_t c = 0; c < p.channels; ++c) {
          float v = -std::numeric_limits<float>::infinity();
          for (int64_t ih = h0; ih < h1; ++ih)
            for (int64_t iw = w0; iw < w1; ++iw)
              v = std::max(v, img[(ih * W_ + iw) * p.channels + c]);
          out[p.offset + c] = v;
        }
      }
    }
  }
  std::vector<Part> parts_;
  bool wide_;
  float* y_ = nullptr;
  int64_t N_ = 1, C_ = 1, OH_ = 1, OW_ = 1, H_ = 1, W_ = 1;
  Window2d window_;
};

}  // namespace

std::unique_ptr<Kernel> createConcatMaxPool(const KernelInit& pool,
                                            const std::vector<TensorRef>& parts) {
  const ir::Node& n = pool.node;
  const TensorRef& y = pool.outputs[0];
  const ir::Attrs& a = n.attrs;
  if (n.op_type != "MaxPool" || (pool.outputs.size() > 1 && pool.outputs[1].data) || !y.data ||
      y.type != ir::DType::F32 || y.layout != Layout::Blocked || !channelsLast() ||
      y.shape().size() != 4 || a.getInts("kernel_shape").size() != 2)
    return nullptr;
  for (int64_t d : a.getInts("dilations", {1, 1}))
    if (d != 1) return nullptr;
  const ir::Shape& xs = pool.inputs[0].shape();
  std::vector<ConcatMaxPool::Part> runs;
  int64_t at = 0;
  for (const TensorRef& part : parts) {
    const ir::Shape& s = part.shape();
    if (!part.data || part.type != ir::DType::F32 || part.layout != Layout::Blocked ||
        s.size() != 4 || s[0] != xs[0] || s[2] != xs[2] || s[3] != xs[3])
      return nullptr;
    runs.push_back({part.f32(), s[1], at});
    at += s[1];
  }
  if (at != y.shape()[1]) return nullptr;
  return std::make_unique<ConcatMaxPool>(pool, std::move(runs));
}

Result<std::unique_ptr<Kernel>> createPoolKernel(const KernelInit& k) {
  const OpDef& d = defOf(k.node);
  if (d.poolKind() == PoolKind::Lp) {
    if (k.inputs[0].dtype() != ir::DType::F32 || k.inputs[0].layout != Layout::Plain)
      return Status::error(ErrorCode::NotImplemented, "node '{}': {} of {} is not supported",
                           k.node.name, k.node.op_type, ir::dtypeName(k.inputs[0].dtype()));
    return std::unique_ptr<Kernel>(std::make_unique<LoopLpPool>(k));
  }
  const bool with_indices = k.outputs.size() > 1 && k.outputs[1].data;
  if (d.poolKind() == PoolKind::Max && !d.isGlobalPool() &&
      (with_indices || k.inputs[0].dtype() != ir::DType::F32)) {
    switch (k.inputs[0].dtype()) {
      case ir::DType::F32:
        return std::unique_ptr<Kernel>(std::make_unique<LoopMaxPool<float>>(k));
      case ir::DType::U8:
        return std::unique_ptr<Kernel>(std::make_unique<LoopMaxPool<uint8_t>>(k));
      case ir::DType::I8:
        return std::unique_ptr<Kernel>(std::make_unique<LoopMaxPool<int8_t>>(k));
      default:
        return Status::error(ErrorCode::NotImplemented, "node '{}': MaxPool of {} is not supported",
                             k.node.name, ir::dtypeName(k.inputs[0].dtype()));
    }
  }
  if (BlockedMaxPool::serves(k))
    return std::unique_ptr<Kernel>(std::make_unique<BlockedMaxPool>(k));
  if (k.inputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}': pooling of {} is not supported",
                         k.node.name, ir::dtypeName(k.inputs[0].dtype()));
  auto p = std::make_unique<PoolKernel>(k.env);
  ASC_RETURN_IF_ERROR(p->init(k));
  return std::unique_ptr<Kernel>(std::move(p));
}

Layout poolLayout(const ir::Node& n, const std::vector<Layout>& in) {
  if (defOf(n).poolKind() == PoolKind::Lp) return Layout::Plain;
  return n.outputs.size() > 1 ? Layout::Plain : in[0];
}

}  // namespace asc::ops
