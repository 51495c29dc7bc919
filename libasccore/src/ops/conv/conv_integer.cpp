// conv_integer.cpp: ConvInteger and QLinearConv, a plain loop (see the class comment).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "conv_kernel.h"

namespace asc::ops {
namespace {

// ConvInteger and QLinearConv: a loop over uint8/int8 data less the zero points, accumulating
// in int64, with 1 to 3 spatial dims (seen as 3-D: missing leading dims have size 1).
// ConvInteger writes the int32 sum; QLinearConv adds the bias and requantizes with the scales
// (w's per output channel when it has one per channel). Zero points and scales are read on
// every run.
class ConvInteger : public Kernel {
 public:
  explicit ConvInteger(const KernelInit& k) : q_(k.node.op_type == "QLinearConv"), ins_(k.inputs) {
    x_ = ins_[0];
    w_ = ins_[q_ ? 3 : 1];
    y_ = k.outputs[0];
    const ir::Attrs& a = k.node.attrs;
    const size_t sp = x_.shape().size() - 2, off = 3 - sp;
    const auto st = a.getInts("strides", std::vector<int64_t>(sp, 1));
    const auto dl = a.getInts("dilations", std::vector<int64_t>(sp, 1));
    const auto pd = a.getInts("pads", std::vector<int64_t>(2 * sp, 0));
    for (size_t d = 0; d < sp; ++d) {
      in_[off + d] = x_.shape()[2 + d];
      out_[off + d] = y_.shape()[2 + d];
      k_[off + d] = w_.shape()[2 + d];
      strides_[off + d] = st[d];
      dil_[off + d] = dl[d];
      pads_[off + d] = pd[d];
    }
    group_ = a.getInt("group", 1);
  }
  void run() override {
    const int64_t N = x_.shape()[0], C = x_.shape()[1];
    const int64_t O = w_.shape()[0], Cg = w_.shape()[1], Og = O / group_;
    const int64_t in_map = in_[0] * in_[1] * in_[2], out_map = out_[0] * out_[1] * out_[2];
    const int64_t k_map = k_[0] * k_[1] * k_[2];
    const int64_t xzp = param(2, 0);
    const size_t wzp_i = q_ ? 5 : 3;
    float xs_scale = 1.f, ys_scale = 1.f;
    int64_t yzp = 0, lo = 0, hi = 0;
    if (q_) {
      xs_scale = scale(1, 0);
      ys_scale = scale(6, 0);
      yzp = param(7, 0);
      lo = y_.dtype() == ir::DType::I8 ? -128 : 0;
      hi = y_.dtype() == ir::DType::I8 ? 127 : 255;
    }
    const bool has_bias = q_ && ins_.size() > 8 && ins_[8].data;
    for (int64_t o = 0; o < O; ++o) {
      const int64_t wzp = param(wzp_i, o);
      const float mult = q_ ? xs_scale * scale(4, o) / ys_scale : 1.f;
      const int64_t bias = has_bias ? static_cast<const int32_t*>(ins_[8].data)[o] : 0;
      const int64_t g = o / Og;
      for (int64_t n = 0; n < N; ++n)
        for (int64_t p = 0; p < out_[0]; ++p)
          for (int64_t i = 0; i < out_[1]; ++i)
            for (int64_t j = 0; j < out_[2]; ++j) {
              int64_t acc = bias;
              for (int64_t c = 0; c < Cg; ++c) {
                const int64_t xbase = (n * C + g * Cg + c) * in_map;
                const int64_t wbase = (o * Cg + c) * k_map;
                for (int64_t kd = 0; kd < k_[0]; ++kd) {
                  const int64_t z = p * strides_[0] - pads_[0] + kd * dil_[0];
                  if (z < 0 || z >= in_[0]) continue;  // padding: x_zero_point, adds 0
                  for (int64_t ki = 0; ki < k_[1]; ++ki) {
                    const int64_t r = i * strides_[1] - pads_[1] + ki * dil_[1];
                    if (r < 0 || r >= in_[1]) continue;
                    for (int64_t kj = 0; kj < k_[2]; ++kj) {
                      const int64_t q = j * strides_[2] - pads_[2] + kj * dil_[2];
                      if (q < 0 || q >= in_[2]) continue;
                      const int64_t xv = read(x_, xbase + (z * in_[1] + r) * in_[2] + q);
                      const int64_t wv = read(w_, wbase + (kd * k_[1] + ki) * k_[2] + kj);
                      acc += (xv - xzp) * (wv - wzp);
                    }
                  }
                }
              }
              const int64_t at = (n * O + o) * out_map + (p * out_[1] + i) * out_[2] + j;
              if (!q_) {
                static_cast<int32_t*>(y_.data)[at] = static_cast<int32_t>(acc);
                continue;
              }
              const float v =
                  std::nearbyint(static_cast<float>(acc) * mult) + static_cast<float>(yzp);
              const auto sat = static_cast<int64_t>(
                  std::clamp(v, static_cast<float>(lo), static_cast<float>(hi)));
              if (y_.dtype() == ir::DType::I8)
                static_cast<int8_t*>(y_.data)[at] = static_cast<int8_t>(sat);
              else
                static_cast<uint8_t*>(y_.data)[at] = static_cast<uint8_t>(sat);
            }
    }
  }
  std::string implName() const override { return q_ ? "qlinear-conv" : "conv-integer"; }

 private:
  static int64_t read(const TensorRef& t, int64_t i) {
    return t.dtype() == ir::DType::I8 ? static_cast<const int8_t*>(t.data)[i]
                                      : static_cast<const uint8_t*>(t.data)[i];
  }
  // Element `o` of zero-point input i (or its only element); 0 when it is absent.
  int64_t param(size_t i, int64_t o) const {
    if (i >= ins_.size() || !ins_[i].data) return 0;
    return read(ins_[i], ins_[i].numel() > 1 ? o : 0);
  }
  float scale(size_t i, int64_t o) const {
    return static_cast<const float*>(ins_[i].data)[ins_[i].numel() > 1 ? o : 0];
  }
  bool q_;
  std::vector<TensorRef> ins_;
  TensorRef x_, w_, y_;
  // Spatial geometry as 3-D (begin pads only: the output size already accounts for the ends).
  int64_t in_[3] = {1, 1, 1}, out_[3] = {1, 1, 1}, k_[3] = {1, 1, 1};
  int64_t strides_[3] = {1, 1, 1}, dil_[3] = {1, 1, 1}, pads_[3] = {0, 0, 0};
  int64_t group_ = 1;
};

}  // namespace

Result<std::unique_ptr<Kernel>> createConvIntegerKernel(const KernelInit& k) {
  return std::unique_ptr<Kernel>(std::make_unique<ConvInteger>(k));
}

}  // namespace asc::ops
