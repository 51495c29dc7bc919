// signal_kernel.cpp: DFT and STFT on the CPU, and the window and mel formulas. Each 1-D
// transform works in double precision over a twiddle table (cos and sin of 2*pi*m/n): an
// iterative radix-2 FFT when the length is a power of two (the usual audio frames: 256, 512,
// 1024 points), a direct sum otherwise (indexing the table by k*t mod n). The transforms of one
// run are spread over the session's threads, each with its own preallocated scratch signal.
#include "signal_kernel.h"

#include <algorithm>
#include <cmath>
#include <complex>

#include "cpu/parallel.h"

namespace asc::ops {
namespace {

constexpr double kPi = 3.14159265358979323846;
using Complex = std::complex<double>;

// One complex transform of length n: reads `len` points of x (stride xs, `complex` pairs or
// reals; points past n are dropped, missing ones are zero), writes `bins` pairs to y (stride
// ys). `scratch` holds n values (used by the FFT path).
class Dft1d {
 public:
  explicit Dft1d(int64_t n) : n_(n), cos_(n), sin_(n) {
    for (int64_t m = 0; m < n; ++m) {
      cos_[m] = std::cos(2 * kPi * static_cast<double>(m) / static_cast<double>(n));
      sin_[m] = std::sin(2 * kPi * static_cast<double>(m) / static_cast<double>(n));
    }
    pow2_ = n >= 2 && (n & (n - 1)) == 0;
  }
  int64_t size() const { return n_; }
  // window: nullptr or `len` weights applied to the input points.
  void run(const float* x, int64_t xs, bool complex, int64_t len, const float* window, float* y,
           int64_t ys, int64_t bins, bool inverse, Complex* scratch) const {
    const int64_t used = std::min(len, n_);
    const double sign = inverse ? 1.0 : -1.0;
    const double scale = inverse ? 1.0 / static_cast<double>(n_) : 1.0;
    auto point = [&](int64_t t) {
      const double w = window ? window[t] : 1.0;
      return Complex(x[t * xs] * w, complex ? x[t * xs + 1] * w : 0.0);
    };
    if (pow2_) {
      for (int64_t t = 0; t < n_; ++t) scratch[t] = t < used ? point(t) : Complex(0, 0);
      fft(scratch, sign);
      for (int64_t k = 0; k < bins; ++k) {
        y[k * ys] = static_cast<float>(scratch[k].real() * scale);
        y[k * ys + 1] = static_cast<float>(scratch[k].imag() * scale);
      }
      return;
    }
    for (int64_t k = 0; k < bins; ++k) {
      double re = 0, im = 0;
      for (int64_t t = 0; t < used; ++t) {
        const int64_t m = (k * t) % n_;
        const Complex p = point(t);
        // (a + ib)(cos + i*sign*sin)
        re += p.real() * cos_[m] - sign * p.imag() * sin_[m];
        im += sign * p.real() * sin_[m] + p.imag() * cos_[m];
      }
      y[k * ys] = static_cast<float>(re * scale);
      y[k * ys + 1] = static_cast<float>(im * scale);
    }
  }

 private:
  // In-place iterative radix-2 FFT of n_ points: bit-reversed order, then log2(n) butterfly
  // stages; the twiddle of stage `half` at j is entry j * n / (2 * half) of the table.
  void fft(Complex* a, double sign) const {
    for (int64_t i = 1, j = 0; i < n_; ++i) {
      int64_t bit = n_ >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(a[i], a[j]);
    }
    for (int64_t half = 1; half < n_; half <<= 1) {
      const int64_t step = n_ / (2 * half);
      for (int64_t start = 0; start < n_; start += 2 * half)
        for (int64_t j = 0; j < half; ++j) {
          const Complex w(cos_[j * step], sign * sin_[j * step]);
          const Complex u = a[start + j], v = a[start + j + half] * w;
          a[start + j] = u + v;
          a[start + j + half] = u - v;
        }
    }
  }

  int64_t n_;
  bool pow2_ = false;
  std::vector<double> cos_, sin_;
};

// Runs `count` transforms, item i through f(i, scratch), over up to `slots` threads, each slot
// with its own n-point scratch.
class TransformPool {
 public:
  TransformPool(int threads, int64_t n)
      : slots_(std::max(threads, 1)), n_(n), scratch_(static_cast<size_t>(slots_ * n)) {}
  template <typename F>
  void run(int64_t count, F&& f) {
    const int64_t slots = std::min<int64_t>(slots_, count);
    const int64_t per = slots > 0 ? (count + slots - 1) / slots : 0;
    cpu::parallelFor(slots, 1, [&](int64_t b, int64_t e) {
      for (int64_t s = b; s < e; ++s)
        for (int64_t i = s * per; i < std::min(count, (s + 1) * per); ++i)
          f(i, scratch_.data() + s * n_);
    });
  }

 private:
  int64_t slots_, n_;
  std::vector<Complex> scratch_;
};

// DFT over `axis` of x [outer..., len, inner..., c] into y [outer..., bins, inner..., 2].
class DftKernel : public Kernel {
 public:
  DftKernel(const KernelInit& k, int64_t n, int64_t axis)
      : x_(k.inputs[0]), y_(k.outputs[0]), dft_(n), pool_(k.threads, n) {
    const ir::Shape& xs = x_.shape();
    const ir::Shape& ys = y_.shape();
    for (int64_t d = 0; d < axis; ++d) outer_ *= xs[d];
    for (size_t d = axis + 1; d + 1 < xs.size(); ++d) inner_ *= xs[d];
    len_ = xs[axis];
    bins_ = ys[axis];
    complex_ = xs.back() == 2;
    inverse_ = k.node.attrs.getInt("inverse", 0) != 0;
  }
  void run() override {
    const int64_t c = complex_ ? 2 : 1;
    const float* x = x_.f32();
    float* y = y_.f32();
    pool_.run(outer_ * inner_, [&](int64_t item, Complex* scratch) {
      const int64_t o = item / inner_, i = item % inner_;
      dft_.run(x + (o * len_ * inner_ + i) * c, inner_ * c, complex_, len_, nullptr,
               y + (o * bins_ * inner_ + i) * 2, inner_ * 2, bins_, inverse_, scratch);
    });
  }
  std::string implName() const override { return "dft"; }

 private:
  TensorRef x_, y_;
  Dft1d dft_;
  TransformPool pool_;
  int64_t outer_ = 1, inner_ = 1, len_ = 1, bins_ = 1;
  bool complex_ = false, inverse_ = false;
};

// STFT of signal [batch, length, c] into [batch, frames, bins, 2]; the window (input 2) is read
// on every run.
class StftKernel : public Kernel {
 public:
  StftKernel(const KernelInit& k, int64_t step, int64_t frame)
      : x_(k.inputs[0]),
        y_(k.outputs[0]),
        step_(step),
        frame_(frame),
        dft_(frame),
        pool_(k.threads, frame) {
    if (k.inputs.size() > 2) window_ = k.inputs[2];
  }
  void run() override {
    const ir::Shape& xs = x_.shape();
    const ir::Shape& ys = y_.shape();
    const int64_t len = xs[1], c = xs[2];
    const int64_t frames = ys[1], bins = ys[2];
    const float* x = x_.f32();
    const float* w = window_.data ? window_.f32() : nullptr;
    float* y = y_.f32();
    pool_.run(xs[0] * frames, [&](int64_t item, Complex* scratch) {
      const int64_t b = item / frames, f = item % frames;
      dft_.run(x + (b * len + f * step_) * c, c, c == 2, frame_, w, y + item * bins * 2, 2, bins,
               false, scratch);
    });
  }
  std::string implName() const override { return "stft"; }

 private:
  TensorRef x_, y_, window_;
  int64_t step_, frame_;
  Dft1d dft_;
  TransformPool pool_;
};

Status checkF32(const KernelInit& k) {
  if (k.inputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}' ({}): input of {} is not supported",
                         k.node.name, k.node.op_type, ir::dtypeName(k.inputs[0].dtype()));
  return Status::ok();
}

// The value of constant scalar input i (shape inference checked it is one).
int64_t constScalar(const KernelInit& k, size_t i, int64_t dflt) {
  if (i >= k.inputs.size() || !k.inputs[i].value) return dflt;
  return k.inputs[i].value->tensor().intAt(0);
}

}  // namespace

Result<std::unique_ptr<Kernel>> createDftKernel(const KernelInit& k) {
  ASC_RETURN_IF_ERROR(checkF32(k));
  // Shape inference normalized the axis into the attribute and checked dft_length.
  const int64_t axis = k.node.attrs.getInt("axis", 1);
  const int64_t n = constScalar(k, 1, k.inputs[0].shape()[axis]);
  return std::unique_ptr<Kernel>(std::make_unique<DftKernel>(k, n, axis));
}

Result<std::unique_ptr<Kernel>> createStftKernel(const KernelInit& k) {
  ASC_RETURN_IF_ERROR(checkF32(k));
  if (k.inputs.size() > 2 && k.inputs[2].data && k.inputs[2].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented,
                         "node '{}' (STFT): window of {} is not supported", k.node.name,
                         ir::dtypeName(k.inputs[2].dtype()));
  const int64_t step = constScalar(k, 1, 1);
  int64_t frame = constScalar(k, 3, 0);
  if (frame == 0 && k.inputs.size() > 2 && k.inputs[2].value) frame = k.inputs[2].shape()[0];
  return std::unique_ptr<Kernel>(std::make_unique<StftKernel>(k, step, frame));
}

double windowValue(const std::string& op, int64_t n, int64_t size, bool periodic) {
  const double period = static_cast<double>(periodic ? size : size - 1);
  if (period <= 0) return 1.0;  // a one-point symmetric window
  const double x = 2 * kPi * static_cast<double>(n) / period;
  if (op == "HannWindow") return 0.5 - 0.5 * std::cos(x);
  if (op == "HammingWindow") {
    constexpr double a0 = 25.0 / 46.0;
    return a0 - (1 - a0) * std::cos(x);
  }
  return 0.42 - 0.5 * std::cos(x) + 0.08 * std::cos(2 * x);  // BlackmanWindow
}

std::vector<double> melWeights(int64_t num_mel_bins, int64_t dft_length, int64_t sample_rate,
                               double lower_hz, double upper_hz) {
  const int64_t spectrum_bins = dft_length / 2 + 1;
  std::vector<double> out(static_cast<size_t>(spectrum_bins * num_mel_bins), 0.0);
  auto mel = [](double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); };
  // num_mel_bins + 2 edges from lower_edge_hertz in steps of 1/(num_mel_bins + 2) of the mel
  // range (as ONNX defines it: the last edge stops one step short of upper_edge_hertz), mapped
  // back to hertz and then to the index of the DFT bin that holds them.
  const double lo = mel(lower_hz), hi = mel(upper_hz);
  const double step = (hi - lo) / static_cast<double>(num_mel_bins + 2);
  std::vector<int64_t> edge(static_cast<size_t>(num_mel_bins + 2));
  for (int64_t i = 0; i < num_mel_bins + 2; ++i) {
    const double hz = 700.0 * (std::pow(10.0, (lo + step * static_cast<double>(i)) / 2595.0) - 1);
    edge[i] = static_cast<int64_t>(
        std::floor(static_cast<double>(dft_length + 1) * hz / static_cast<double>(sample_rate)));
  }
  auto at = [&](int64_t row, int64_t col) -> double* {
    if (row < 0 || row >= spectrum_bins) return nullptr;
    return &out[static_cast<size_t>(row * num_mel_bins + col)];
  };
  for (int64_t m = 0; m < num_mel_bins; ++m) {
    const int64_t left = edge[m], center = edge[m + 1], right = edge[m + 2];
    if (center == left) {
      if (double* p = at(center, m)) *p = 1.0;
    } else {
      for (int64_t j = left; j <= center; ++j)
        if (double* p = at(j, m))
          *p = static_cast<double>(j - left) / static_cast<double>(center - left);
    }
    for (int64_t j = center; j < right; ++j)
      if (double* p = at(j, m))
        *p = static_cast<double>(right - j) / static_cast<double>(right - center);
  }
  return out;
}

}  // namespace asc::ops
