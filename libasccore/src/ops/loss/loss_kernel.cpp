// loss_kernel.cpp: the two classification losses over input [N, C, d1, ...] (viewed as
// [N, C, D]) and integer targets [N, d1, ...] ([N, D]). SoftmaxCrossEntropyLoss first takes the
// log-softmax over C (max-subtracted, in double), optionally written out as log_prob. Per
// element: loss = -w[t] * input[n][t][d], with w[t] = weight[t] (1 without weights) and 0 where
// t == ignore_index. reduction none gives the per-element losses, sum their sum, mean their sum
// divided by the sum of the w (the ONNX definition: a weighted mean over the elements not
// ignored).
#include "loss_kernel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace asc::ops {
namespace {

template <typename T>
class LossKernel : public Kernel {
 public:
  explicit LossKernel(const KernelInit& k) {
    const ir::Shape& x = k.inputs[0].shape();
    n_ = x[0];
    c_ = x[1];
    d_ = 1;
    for (size_t i = 2; i < x.size(); ++i) d_ *= x[i];
    in_ = static_cast<const T*>(k.inputs[0].data);
    target_ = k.inputs[1].data;
    t64_ = k.inputs[1].dtype() == ir::DType::I64;
    weight_ =
        k.inputs.size() > 2 && k.inputs[2].data ? static_cast<const T*>(k.inputs[2].data) : nullptr;
    out_ = static_cast<T*>(k.outputs[0].data);
    log_prob_ =
        k.outputs.size() > 1 && k.outputs[1].data ? static_cast<T*>(k.outputs[1].data) : nullptr;
    softmax_ = k.node.op_type == "SoftmaxCrossEntropyLoss";
    has_ignore_ = k.node.attrs.has("ignore_index");
    ignore_ = k.node.attrs.getInt("ignore_index", 0);
    const std::string r = k.node.attrs.getString("reduction", "mean");
    reduction_ = r == "none" ? 0 : r == "sum" ? 1 : 2;
    if (softmax_) lp_.resize(static_cast<size_t>(n_ * c_ * d_));
  }

  void run() override {
    const T* src = in_;
    if (softmax_) {
      for (int64_t n = 0; n < n_; ++n)
        for (int64_t d = 0; d < d_; ++d) {
          const T* x = in_ + n * c_ * d_ + d;
          double m = -std::numeric_limits<double>::infinity();
          for (int64_t c = 0; c < c_; ++c) m = std::max(m, static_cast<double>(x[c * d_]));
          double s = 0;
          for (int64_t c = 0; c < c_; ++c) s += std::exp(static_cast<double>(x[c * d_]) - m);
          const double lse = m + std::log(s);
          for (int64_t c = 0; c < c_; ++c)
            lp_[(n * c_ + c) * d_ + d] = static_cast<T>(static_cast<double>(x[c * d_]) - lse);
        }
      if (log_prob_) std::copy(lp_.begin(), lp_.end(), log_prob_);
      src = lp_.data();
    }
    double sum = 0, wsum = 0;
    for (int64_t n = 0; n < n_; ++n)
      for (int64_t d = 0; d < d_; ++d) {
        const int64_t i = n * d_ + d;
        const int64_t t = t64_ ? static_cast<const int64_t*>(target_)[i]
                               : static_cast<const int32_t*>(target_)[i];
        double w = 0, l = 0;
        if (!(has_ignore_ && t == ignore_) && t >= 0 && t < c_) {
          w = weight_ ? static_cast<double>(weight_[t]) : 1.0;
          l = -w * static_cast<double>(src[(n * c_ + t) * d_ + d]);
        }
        if (reduction_ == 0) out_[i] = static_cast<T>(l);
        sum += l;
        wsum += w;
      }
    if (reduction_ == 1) out_[0] = static_cast<T>(sum);
    if (reduction_ == 2) out_[0] = static_cast<T>(sum / wsum);
  }
  std::string implName() const override { return softmax_ ? "softmax-cross-entropy" : "nll"; }

 private:
  int64_t n_, c_, d_;
  const T* in_;
  const void* target_;
  bool t64_;
  const T* weight_;
  T* out_;
  T* log_prob_;
  bool softmax_, has_ignore_;
  int64_t ignore_;
  int reduction_;
  std::vector<T> lp_;
};

}  // namespace

Result<std::unique_ptr<Kernel>> createLossKernel(const KernelInit& k) {
  switch (k.inputs[0].dtype()) {
    case ir::DType::F32:
      return std::unique_ptr<Kernel>(std::make_unique<LossKernel<float>>(k));
    case ir::DType::F64:
      return std::unique_ptr<Kernel>(std::make_unique<LossKernel<double>>(k));
    default:
      return Status::error(ErrorCode::NotImplemented, "node '{}' ({}): {} input is not supported",
                           k.node.name, k.node.op_type, ir::dtypeName(k.inputs[0].dtype()));
  }
}

}  // namespace asc::ops
