// reduce_kernel.cpp: reductions over any set of axes. Each output element walks its reduced
// sub-space with strides (a contiguous run when the reduced axes are the innermost ones, as in
// the LayerNorm patterns); Max/Min compare in the element type, the others accumulate in double
// (reduce_kernel.h). ArgMax/ArgMin walk one axis per output element; CumSum scans one; TopK sorts
// one.
#include "reduce_kernel.h"

#include <algorithm>
#include <limits>

#include "ops/op_util.h"
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
    kind_ = reduceKindOf(op);
    extreme_ = kind_ == ReduceKind::Max || kind_ == ReduceKind::Min;
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
        double acc = reduceInit(kind_);
        T best = red_count_ ? in_[base] : T(0);
        const bool is_max = kind_ == ReduceKind::Max;
        auto take = [&](T v) {
          if (extreme_)
            best = (is_max ? v > best : v < best) ? v : best;
          else
            acc = reduceStep(kind_, acc, static_cast<double>(v));
        };
        if (contiguous_) {
          const T* p = in_ + base;
          if (kind_ == ReduceKind::Sum || kind_ == ReduceKind::Mean)
            for (int64_t i = 0; i < red_count_; ++i) acc += static_cast<double>(p[i]);
          else
            for (int64_t i = 0; i < red_count_; ++i) take(p[i]);
        } else {
          std::fill(idx.begin(), idx.end(), 0);
          for (int64_t i = 0; i < red_count_; ++i) {
            int64_t off = base;
            for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * red_strides_[d];
            take(in_[off]);
            for (int64_t d = static_cast<int64_t>(idx.size()) - 1; d >= 0; --d) {
              if (++idx[d] < red_dims_[d]) break;
              idx[d] = 0;
            }
          }
        }
        if (extreme_)
          out_[o] = best;
        else if (kind_ == ReduceKind::Mean && red_count_ == 0)
          out_[o] = T(0);
        else
          out_[o] = static_cast<T>(reduceFinish(kind_, acc, red_count_));
      }
    });
  }
  std::string implName() const override { return contiguous_ ? "reduce-inner" : "reduce-strided"; }

 private:
  const T* in_;
  T* out_;
  ReduceKind kind_;
  bool extreme_;
  ir::Shape keep_dims_, red_dims_;
  std::vector<int64_t> keep_strides_, red_strides_;
  int64_t red_count_ = 1, out_count_ = 1;
  bool contiguous_ = false;
};

// ArgMax/ArgMin over one axis: [outer, n, inner] views of the input, int64 indices out.
template <typename T>
class ArgKernel : public Kernel {
 public:
  explicit ArgKernel(const KernelInit& k)
      : in_(static_cast<const T*>(k.inputs[0].data)),
        out_(static_cast<int64_t*>(k.outputs[0].data)) {
    const ir::Shape& x = k.inputs[0].shape();
    const int64_t axis = k.node.attrs.getInt("axis", 0);
    for (int64_t d = 0; d < static_cast<int64_t>(x.size()); ++d)
      (d < axis ? outer_ : d > axis ? inner_ : n_) *= x[d];
    max_ = k.node.op_type == "ArgMax";
    last_ = k.node.attrs.getInt("select_last_index", 0) != 0;
  }
  void run() override {
    cpu::parallelFor(outer_ * inner_, 256, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const T* p = in_ + (o / inner_) * n_ * inner_ + o % inner_;
        T best = p[0];
        int64_t at = 0;
        for (int64_t j = 1; j < n_; ++j) {
          const T v = p[j * inner_];
          const bool better =
              max_ ? (last_ ? v >= best : v > best) : (last_ ? v <= best : v < best);
          if (better) {
            best = v;
            at = j;
          }
        }
        out_[o] = at;
      }
    });
  }
  std::string implName() const override { return "arg-reduce"; }

 private:
  const T* in_;
  int64_t* out_;
  int64_t outer_ = 1, n_ = 1, inner_ = 1;
  bool max_ = true, last_ = false;
};

// CumSum: the axis (input 1) may be a run-time input, read on every run.
template <typename T>
class CumSumKernel : public Kernel {
 public:
  explicit CumSumKernel(const KernelInit& k)
      : in_(static_cast<const T*>(k.inputs[0].data)),
        out_(static_cast<T*>(k.outputs[0].data)),
        shape_(k.inputs[0].shape()),
        axis_(k.inputs[1].data),
        axis64_(k.inputs[1].dtype() == ir::DType::I64),
        exclusive_(k.node.attrs.getInt("exclusive", 0) != 0),
        reverse_(k.node.attrs.getInt("reverse", 0) != 0) {}
  void run() override {
    const int64_t r = static_cast<int64_t>(shape_.size());
    int64_t a = axis64_ ? *static_cast<const int64_t*>(axis_) : *static_cast<const int32_t*>(axis_);
    if (a < 0) a += r;
    if (a < 0 || a >= r) {  // out of range at run time: no sum (the output is the input)
      std::copy(in_, in_ + ir::numElements(shape_), out_);
      return;
    }
    cumsum(in_, out_, shape_, a, exclusive_, reverse_);
  }
  std::string implName() const override { return "cumsum"; }

 private:
  const T* in_;
  T* out_;
  ir::Shape shape_;
  const void* axis_;
  bool axis64_, exclusive_, reverse_;
};

// TopK: per row along the axis, the k best indices by (value, then lower index first).
template <typename T>
class TopKKernel : public Kernel {
 public:
  explicit TopKKernel(const KernelInit& k)
      : in_(static_cast<const T*>(k.inputs[0].data)),
        vals_(static_cast<T*>(k.outputs[0].data)),
        idx_(static_cast<int64_t*>(k.outputs[1].data)),
        k_(k.node.attrs.getInt("k", 0)),
        largest_(k.node.attrs.getInt("largest", 1) != 0) {
    const ir::Shape& x = k.inputs[0].shape();
    const int64_t axis = k.node.attrs.getInt("axis", 0);
    for (int64_t d = 0; d < static_cast<int64_t>(x.size()); ++d)
      (d < axis ? outer_ : d > axis ? inner_ : n_) *= x[d];
  }
  void run() override {
    cpu::parallelFor(outer_ * inner_, 16, [&](int64_t b, int64_t e) {
      std::vector<int64_t> order(static_cast<size_t>(n_));
      for (int64_t r = b; r < e; ++r) {
        const int64_t o = r / inner_, i = r % inner_;
        const T* x = in_ + o * n_ * inner_ + i;
        for (int64_t j = 0; j < n_; ++j) order[j] = j;
        auto better = [&](int64_t a, int64_t c) {
          const T va = x[a * inner_], vc = x[c * inner_];
          if (va != vc) return largest_ ? va > vc : va < vc;
          return a < c;
        };
        std::partial_sort(order.begin(), order.begin() + k_, order.end(), better);
        for (int64_t j = 0; j < k_; ++j) {
          const int64_t at = (o * k_ + j) * inner_ + i;
          vals_[at] = x[order[j] * inner_];
          idx_[at] = order[j];
        }
      }
    });
  }
  std::string implName() const override { return "topk"; }

 private:
  const T* in_;
  T* vals_;
  int64_t* idx_;
  int64_t k_;
  bool largest_;
  int64_t outer_ = 1, n_ = 1, inner_ = 1;
};

Status unsupported(const KernelInit& k) {
  return Status::error(ErrorCode::NotImplemented, "node '{}': {} of {} is not supported",
                       k.node.name, k.node.op_type, ir::dtypeName(k.inputs[0].dtype()));
}

template <template <typename> class K>
Result<std::unique_ptr<Kernel>> numericKernel(const KernelInit& k) {
  return ir::visitNumeric(
      k.inputs[0].dtype(),
      [&](auto tag) -> Result<std::unique_ptr<Kernel>> {
        using T = typename decltype(tag)::type;
        if constexpr (sizeof(T) >= 4) return std::unique_ptr<Kernel>(std::make_unique<K<T>>(k));
        return unsupported(k);
      },
      [&]() -> Result<std::unique_ptr<Kernel>> { return unsupported(k); });
}

}  // namespace

Result<std::unique_ptr<Kernel>> createCumSumKernel(const KernelInit& k) {
  return numericKernel<CumSumKernel>(k);
}

Result<std::unique_ptr<Kernel>> createTopKKernel(const KernelInit& k) {
  return numericKernel<TopKKernel>(k);
}

Result<std::unique_ptr<Kernel>> createArgReduceKernel(const KernelInit& k) {
  return ir::visitNumeric(
      k.inputs[0].dtype(),
      [&](auto tag) -> Result<std::unique_ptr<Kernel>> {
        using T = typename decltype(tag)::type;
        return std::unique_ptr<Kernel>(std::make_unique<ArgKernel<T>>(k));
      },
      [&]() -> Result<std::unique_ptr<Kernel>> { return unsupported(k); });
}

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
