// reduce_kernel.cpp: reductions over any set of axes. Each output element walks its reduced
// sub-space with strides (a contiguous run when the reduced axes are the innermost ones, as in
// the LayerNorm patterns), accumulating in double for sums and means.
#include "reduce_kernel.h"

#include <algorithm>
#include <limits>

#include "../op_util.h"
#include "cpu/parallel.h"

namespace asc::ops {
namespace {

template <typename T>
class ReduceKernel : public Kernel {
 public:
  ReduceKernel(const KernelInit& k)
      : in_(static_cast<const T*>(k.inputs[0].data)), out_(static_cast<T*>(k.outputs[0].data)) {
    const ir::Shape& x = k.inputs[0].shape();
    auto axes = k.node.attrs.getInts("axes");
    const std::string& op = k.node.op_type;
    kind_ = op == "ReduceMax" ? 2 : op == "ReduceMean" ? 1 : 0;
    auto st = stridesOf(x);
    for (size_t d = 0; d < x.size(); ++d) {
      if (std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(d))) {
        red_dims_.push_back(x[d]);
        red_strides_.push_back(st[d]);
      } else {
        keep_dims_.push_back(x[d]);
        keep_strides_.push_back(st[d]);
      }
    }
    red_count_ = ir::numElements(red_dims_);
    out_count_ = ir::numElements(keep_dims_);
    // Innermost contiguous run: the reduced axes form a suffix of the shape.
    contiguous_ = !red_dims_.empty() && red_strides_.back() == 1;
    for (size_t i = 1; i < red_dims_.size() && contiguous_; ++i)
      contiguous_ = red_strides_[i - 1] == red_strides_[i] * red_dims_[i];
  }

  void run() override {
    cpu::parallelFor(out_count_, 1, [&](int64_t b, int64_t e) {
      std::vector<int64_t> idx(red_dims_.size());
      for (int64_t o = b; o < e; ++o) {
        int64_t base = 0, rem = o;
        for (int64_t d = static_cast<int64_t>(keep_dims_.size()) - 1; d >= 0; --d) {
          base += (rem % keep_dims_[d]) * keep_strides_[d];
          rem /= keep_dims_[d];
        }
        double acc = kind_ == 2 ? -std::numeric_limits<double>::infinity() : 0.0;
        T best = red_count_ ? in_[base] : T(0);
        if (contiguous_) {
          const T* p = in_ + base;
          if (kind_ == 2)
            for (int64_t i = 0; i < red_count_; ++i) best = p[i] > best ? p[i] : best;
          else
            for (int64_t i = 0; i < red_count_; ++i) acc += static_cast<double>(p[i]);
        } else {
          std::fill(idx.begin(), idx.end(), 0);
          for (int64_t i = 0; i < red_count_; ++i) {
            int64_t off = base;
            for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * red_strides_[d];
            if (kind_ == 2)
              best = in_[off] > best ? in_[off] : best;
            else
              acc += static_cast<double>(in_[off]);
            for (int64_t d = static_cast<int64_t>(idx.size()) - 1; d >= 0; --d) {
              if (++idx[d] < red_dims_[d]) break;
              idx[d] = 0;
            }
          }
        }
        if (kind_ == 2)
          out_[o] = best;
        else if (kind_ == 1)
          out_[o] = static_cast<T>(red_count_ ? acc / static_cast<double>(red_count_) : 0);
        else
          out_[o] = static_cast<T>(acc);
      }
    });
  }
  std::string implName() const override { return contiguous_ ? "reduce-inner" : "reduce-strided"; }

 private:
  const T* in_;
  T* out_;
  int kind_;
  ir::Shape keep_dims_, red_dims_;
  std::vector<int64_t> keep_strides_, red_strides_;
  int64_t red_count_ = 1, out_count_ = 1;
  bool contiguous_ = false;
};

}  // namespace

Result<std::unique_ptr<Kernel>> createReduceKernel(const KernelInit& k) {
  switch (k.inputs[0].dtype()) {
    case ir::DType::F32:
      return std::unique_ptr<Kernel>(std::make_unique<ReduceKernel<float>>(k));
    case ir::DType::F64:
      return std::unique_ptr<Kernel>(std::make_unique<ReduceKernel<double>>(k));
    case ir::DType::I64:
      return std::unique_ptr<Kernel>(std::make_unique<ReduceKernel<int64_t>>(k));
    case ir::DType::I32:
      return std::unique_ptr<Kernel>(std::make_unique<ReduceKernel<int32_t>>(k));
    default:
      return Status::error(ErrorCode::NotImplemented, "node '{}': {} of {} is not supported",
                           k.node.name, k.node.op_type, ir::dtypeName(k.inputs[0].dtype()));
  }
}

}  // namespace asc::ops
