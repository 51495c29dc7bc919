// attention_kernel.cpp: Attention as one loop kernel. The keys and values (the cache's first,
// then the new ones) are laid out once per run as [B, Hkv, T, D] / [B, Hkv, T, Dv], in the
// present_key / present_value outputs when the model asks for them; then each query row (b, h, i)
// is scored against its key/value head (h / (Hq / Hkv)), soft-capped, masked (the mask, causal,
// nonpad_kv_seqlen), soft-maxed (in fp32, after subtracting the row's maximum) and multiplied into
// V, rows in parallel. Softcap comes before the mask, so a masked score stays -inf (ONNX's
// reference). The optional qk_matmul_output is the row at qk_matmul_output_mode's stage:
// 0 the scaled Q K^T, 1 that plus the mask, 2 the soft-capped scores plus the mask (what the
// softmax reads), 3 the softmax. (ONNX's text lists mask before softcap; its reference moved
// softcap first and its modes are in flux; these are the stages with softcap first.)
#include "attention_kernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "cpu/parallel.h"

namespace asc::ops {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

class AttentionKernel : public Kernel {
 public:
  explicit AttentionKernel(const KernelInit& k) {
    const ir::Node& n = k.node;
    const ir::Shape &q = k.inputs[0].shape(), &kk = k.inputs[1].shape(), &v = k.inputs[2].shape();
    three_d_ = q.size() == 3;
    hq_ = n.attrs.getInt("q_num_heads", 1);
    hkv_ = n.attrs.getInt("kv_num_heads", 1);
    b_ = q[0];
    if (three_d_) {
      sq_ = q[1], d_ = q[2] / hq_, skv_ = kk[1], dv_ = v[2] / hkv_;
    } else {
      sq_ = q[2], d_ = q[3], skv_ = kk[2], dv_ = v[3];
    }
    q_ = k.inputs[0].f32();
    k_ = k.inputs[1].f32();
    v_ = k.inputs[2].f32();
    auto has = [&](size_t i) { return k.inputs.size() > i && k.inputs[i].data; };
    if (has(4)) {
      pk_ = k.inputs[4].f32();
      pv_ = k.inputs[5].f32();
      past_ = k.inputs[4].shape()[2];
    }
    total_ = past_ + skv_;
    if (has(3)) {
      mask_ = static_cast<const uint8_t*>(k.inputs[3].data);
      mask_bool_ = k.inputs[3].dtype() == ir::DType::Bool;
      const ir::Shape& m = k.inputs[3].shape();
      const ir::Shape full{b_, hq_, sq_, total_};
      int64_t stride = 1;
      for (size_t i = m.size(); i-- > 0;) {
        const size_t at = 4 - m.size() + i;
        mask_stride_[at] = m[i] == 1 && full[at] != 1 ? 0 : stride;
        stride *= m[i];
      }
      mask_len_ = m.back();  // shorter than the keys: padded as masked out (ONNX's reference)
    }
    scale_ = n.attrs.getFloat("scale", 1.f / std::sqrt(static_cast<float>(d_)));
    softcap_ = n.attrs.getFloat("softcap", 0.f);
    causal_ = n.attrs.getInt("is_causal", 0) != 0;
    qk_mode_ = n.attrs.getInt("qk_matmul_output_mode", 0);
    if (has(6)) nonpad_ = static_cast<const int64_t*>(k.inputs[6].data);
    y_ = static_cast<float*>(k.outputs[0].data);
    auto out = [&](size_t i) {
      return k.outputs.size() > i && k.outputs[i].data ? static_cast<float*>(k.outputs[i].data)
                                                       : nullptr;
    };
    keys_ = out(1);
    values_ = out(2);
    qk_ = out(3);
    if (!keys_) {
      own_keys_.resize(static_cast<size_t>(b_ * hkv_ * total_ * d_));
      keys_ = own_keys_.data();
    }
    if (!values_) {
      own_values_.resize(static_cast<size_t>(b_ * hkv_ * total_ * dv_));
      values_ = own_values_.data();
    }
  }

  void run() override {
    if (nonpad_)
      for (int64_t b = 0; b < b_; ++b)
        if (nonpad_[b] < 0 || nonpad_[b] > total_)
          throw KernelRunError(
              Status::error(ErrorCode::InvalidParam,
                            "Attention: nonpad_kv_seqlen[{}] = {} lies outside the {} keys", b,
                            nonpad_[b], total_));
    gather(k_, pk_, d_, keys_);
    gather(v_, pv_, dv_, values_);
    const int64_t rows = b_ * hq_ * sq_;
    const int64_t group = hq_ / hkv_;
    cpu::parallelFor(rows, 1, [&](int64_t from, int64_t to) {
      std::vector<float> p(static_cast<size_t>(total_));
      for (int64_t r = from; r < to; ++r) {
        const int64_t i = r % sq_, h = (r / sq_) % hq_, b = r / (sq_ * hq_);
        const int64_t hk = h / group;
        const float* qrow =
            q_ + (three_d_ ? (b * sq_ + i) * hq_ * d_ + h * d_ : ((b * hq_ + h) * sq_ + i) * d_);
        const float* kbase = keys_ + (b * hkv_ + hk) * total_ * d_;
        float best = kNegInf;
        // Causal: key j is seen from query i when j <= i + the keys before this block (the
        // cache's, or with nonpad_kv_seqlen its count minus the queries).
        const int64_t offset = nonpad_ ? nonpad_[b] - sq_ : past_;
        const int64_t valid = nonpad_ ? nonpad_[b] : total_;
        float* qk = qk_ ? qk_ + ((b * hq_ + h) * sq_ + i) * total_ : nullptr;
        for (int64_t j = 0; j < total_; ++j) {
          const float* krow = kbase + j * d_;
          float s = 0;
          for (int64_t c = 0; c < d_; ++c) s += qrow[c] * krow[c];
          s *= scale_;
          float add = bias(b, h, i, j);
          if ((causal_ && j > i + offset) || j >= valid) add = kNegInf;
          if (qk && qk_mode_ < 2) qk[j] = qk_mode_ == 0 ? s : s + add;
          if (softcap_ > 0) s = softcap_ * std::tanh(s / softcap_);
          s += add;
          if (qk && qk_mode_ == 2) qk[j] = s;
          p[static_cast<size_t>(j)] = s;
          best = std::max(best, s);
        }
        double sum = 0;
        for (int64_t j = 0; j < total_; ++j) {
          float& x = p[static_cast<size_t>(j)];
          x = std::exp(x - best);
          sum += x;
        }
        float* yrow =
            y_ + (three_d_ ? (b * sq_ + i) * hq_ * dv_ + h * dv_ : ((b * hq_ + h) * sq_ + i) * dv_);
        std::fill(yrow, yrow + dv_, 0.f);
        const float inv = static_cast<float>(1.0 / sum);  // a fully masked row: NaN, as ONNX's
        if (qk && qk_mode_ == 3)
          for (int64_t j = 0; j < total_; ++j) qk[j] = p[static_cast<size_t>(j)] * inv;
        const float* vbase = values_ + (b * hkv_ + hk) * total_ * dv_;
        for (int64_t j = 0; j < total_; ++j) {
          const float w = p[static_cast<size_t>(j)] * inv;
          const float* vrow = vbase + j * dv_;
          for (int64_t c = 0; c < dv_; ++c) yrow[c] += w * vrow[c];
        }
      }
    });
  }
  std::string implName() const override { return "attention-rows"; }

 private:
  // The mask's contribution at (b, h, i, j): 0 or -inf for a bool mask, the value for a float
  // one; positions past a shorter mask's last column are masked out.
  float bias(int64_t b, int64_t h, int64_t i, int64_t j) const {
    if (!mask_) return 0.f;
    if (j >= mask_len_) return kNegInf;
    const int64_t at =
        b * mask_stride_[0] + h * mask_stride_[1] + i * mask_stride_[2] + j * mask_stride_[3];
    if (mask_bool_) return mask_[at] ? 0.f : kNegInf;
    return reinterpret_cast<const float*>(mask_)[at];
  }

  // [B, Hkv, T, width]: the cache's rows, then the new ones (3-D [B, S, Hkv * width] or 4-D).
  void gather(const float* fresh, const float* cache, int64_t width, float* dst) const {
    for (int64_t b = 0; b < b_; ++b)
      for (int64_t h = 0; h < hkv_; ++h) {
        float* out = dst + (b * hkv_ + h) * total_ * width;
        if (cache)
          std::memcpy(out, cache + (b * hkv_ + h) * past_ * width,
                      static_cast<size_t>(past_ * width) * sizeof(float));
        out += past_ * width;
        for (int64_t s = 0; s < skv_; ++s) {
          const float* src = fresh + (three_d_ ? (b * skv_ + s) * hkv_ * width + h * width
                                               : ((b * hkv_ + h) * skv_ + s) * width);
          std::memcpy(out + s * width, src, static_cast<size_t>(width) * sizeof(float));
        }
      }
  }

  bool three_d_ = false, mask_bool_ = false, causal_ = false;
  int64_t b_ = 1, hq_ = 1, hkv_ = 1, sq_ = 1, skv_ = 1, past_ = 0, total_ = 1, d_ = 1, dv_ = 1;
  float scale_ = 1, softcap_ = 0;
  const float *q_ = nullptr, *k_ = nullptr, *v_ = nullptr, *pk_ = nullptr, *pv_ = nullptr;
  const int64_t* nonpad_ = nullptr;
  int64_t qk_mode_ = 0;
  float* qk_ = nullptr;
  const uint8_t* mask_ = nullptr;
  int64_t mask_stride_[4] = {0, 0, 0, 0};
  int64_t mask_len_ = 0;
  float* y_ = nullptr;
  float *keys_ = nullptr, *values_ = nullptr;
  std::vector<float> own_keys_, own_values_;
};

}  // namespace

Result<std::unique_ptr<Kernel>> createAttentionKernel(const KernelInit& k) {
  for (size_t i = 0; i < 3; ++i)
    if (k.inputs[i].dtype() != ir::DType::F32 || k.inputs[i].layout != Layout::Plain)
      return Status::error(ErrorCode::NotImplemented,
                           "node '{}' (Attention): {} inputs are not supported; float32 is",
                           k.node.name, ir::dtypeName(k.inputs[i].dtype()));
  return std::unique_ptr<Kernel>(std::make_unique<AttentionKernel>(k));
}

}  // namespace asc::ops
