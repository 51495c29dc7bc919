// concat_bn.cpp: a BatchNormalization (inference, optionally with its fused Relu) that reads the
// inputs of the channels-last Concat feeding it instead of the Concat's output. DenseNet's
// layers each normalize the Concat of their block's feature maps so far, and channels-last
// tensors cannot be joined in place (every pixel interleaves the inputs): the Concat copied
// the whole map once per layer and the batch norm read it again. Here each pixel's output is
// computed from its runs of channels where the producers left them, so the runtime can leave
// the Concat's step out when nothing observes its output (session_build.cpp).
#include <immintrin.h>

#include <cmath>
#include <vector>

#include "cpu/features.h"
#include "cpu/parallel.h"
#include "norm_kernel.h"

namespace asc::ops {
namespace {

struct Part {
  const float* data;
  int64_t channels;
};

/// y[c] = (x[c] - mean[c]) * mul[c] + shift[c], then max(0, .) with relu, for c < n.
ASC_AVX512 void normRun512(const float* x, const float* mean, const float* mul, const float* shift,
                           float* y, int64_t n, bool relu) {
  const __m512 zero = _mm512_setzero_ps();
  int64_t c = 0;
  for (; c + 16 <= n; c += 16) {
    __m512 v = _mm512_fmadd_ps(_mm512_sub_ps(_mm512_loadu_ps(x + c), _mm512_loadu_ps(mean + c)),
                               _mm512_loadu_ps(mul + c), _mm512_loadu_ps(shift + c));
    if (relu) v = _mm512_maskz_max_ps(0xFFFF, v, zero);  // (GCC 12 warns of _mm512_max_ps)
    _mm512_storeu_ps(y + c, v);
  }
  if (c < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - c)) - 1);
    __m512 v = _mm512_fmadd_ps(
        _mm512_sub_ps(_mm512_maskz_loadu_ps(m, x + c), _mm512_maskz_loadu_ps(m, mean + c)),
        _mm512_maskz_loadu_ps(m, mul + c), _mm512_maskz_loadu_ps(m, shift + c));
    if (relu) v = _mm512_maskz_max_ps(m, v, zero);
    _mm512_mask_storeu_ps(y + c, m, v);
  }
}

void normRun256(const float* x, const float* mean, const float* mul, const float* shift, float* y,
                int64_t n, bool relu) {
  const __m256 zero = _mm256_setzero_ps();
  int64_t c = 0;
  for (; c + 8 <= n; c += 8) {
    __m256 v = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_loadu_ps(x + c), _mm256_loadu_ps(mean + c)),
                               _mm256_loadu_ps(mul + c), _mm256_loadu_ps(shift + c));
    if (relu) v = _mm256_max_ps(v, zero);
    _mm256_storeu_ps(y + c, v);
  }
  for (; c < n; ++c) {
    const float v = std::fma(x[c] - mean[c], mul[c], shift[c]);
    y[c] = relu && !(v > 0.0f) ? 0.0f : v;
  }
}

class ConcatBatchNorm : public Kernel {
 public:
  ConcatBatchNorm(std::vector<Part> parts, int64_t pixels, float* y, std::vector<float> mean,
                  std::vector<float> mul, std::vector<float> shift, bool relu)
      : parts_(std::move(parts)),
        pixels_(pixels),
        y_(y),
        mean_(std::move(mean)),
        mul_(std::move(mul)),
        shift_(std::move(shift)),
        relu_(relu),
        // oneDNN's ISA cap (ONEDNN_MAX_CPU_ISA=AVX2) takes the 8-lane loop too, as it takes
        // every kernel's AVX2 path.
        wide_(cpu::hasAvx512() && cpu::avx512Isa()) {}

  void run() override {
    const int64_t channels = static_cast<int64_t>(mean_.size());
    // Pixels in contiguous runs over the threads, as the Concat split them.
    cpu::parallelFor(pixels_, 64, [&](int64_t b, int64_t e) {
      for (int64_t p = b; p < e; ++p) {
        int64_t at = 0;
        for (const Part& part : parts_) {
          const float* x = part.data + p * part.channels;
          float* y = y_ + p * channels + at;
          if (wide_)
            normRun512(x, &mean_[at], &mul_[at], &shift_[at], y, part.channels, relu_);
          else
            normRun256(x, &mean_[at], &mul_[at], &shift_[at], y, part.channels, relu_);
          at += part.channels;
        }
      }
    });
  }
  std::string implName() const override {
    return wide_ ? "concat_batchnorm:avx512:nhwc" : "concat_batchnorm:avx2:nhwc";
  }

 private:
  std::vector<Part> parts_;
  int64_t pixels_;
  float* y_;
  std::vector<float> mean_, mul_, shift_;
  bool relu_, wide_;
};

}  // namespace

std::unique_ptr<Kernel> createConcatBatchNorm(const KernelInit& bn,
                                              const std::vector<TensorRef>& parts) {
  const TensorRef& y = bn.outputs[0];
  const ir::Shape& ys = y.shape();
  if (bn.inputs.size() < 5 || ys.size() != 4 || !y.data || y.type != ir::DType::F32 ||
      y.layout != Layout::Blocked || !channelsLast())
    return nullptr;
  const int64_t channels = ys[1];
  int64_t total = 0;
  std::vector<Part> runs;
  for (const TensorRef& part : parts) {
    const ir::Shape& s = part.shape();
    if (!part.data || part.type != ir::DType::F32 || part.layout != Layout::Blocked ||
        s.size() != 4 || s[0] != ys[0] || s[2] != ys[2] || s[3] != ys[3])
      return nullptr;
    runs.push_back({part.f32(), s[1]});
    total += s[1];
  }
  for (int i = 1; i < 5; ++i)
    if (!bn.inputs[i].data || bn.inputs[i].type != ir::DType::F32 ||
        bn.inputs[i].numel() != channels)
      return nullptr;
  if (total != channels) return nullptr;
  // oneDNN's inference batch norm: (x - mean) * scale / sqrt(var + eps) + shift.
  const float eps = bn.node.attrs.getFloat("epsilon", 1e-5f);
  std::vector<float> mean(channels), mul(channels), shift(channels);
  for (int64_t c = 0; c < channels; ++c) {
    mean[c] = bn.inputs[3].f32()[c];
    mul[c] = bn.inputs[1].f32()[c] / std::sqrt(bn.inputs[4].f32()[c] + eps);
    shift[c] = bn.inputs[2].f32()[c];
  }
  const std::string activation = bn.node.attrs.getString("activation", "");
  if (!activation.empty() && activation != "Relu") return nullptr;
  const bool relu = activation == "Relu";
  return std::make_unique<ConcatBatchNorm>(std::move(runs), ys[0] * ys[2] * ys[3],
                                           static_cast<float*>(y.data), std::move(mean),
                                           std::move(mul), std::move(shift), relu);
}

}  // namespace asc::ops
