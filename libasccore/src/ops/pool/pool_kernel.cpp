// pool_kernel.cpp: MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool on oneDNN's
// pooling (any layout). ceil_mode is expressed as extra right padding: the output size is the
// one shape inference computed, and the padding makes oneDNN produce exactly that size.
// MaxPool with its Indices output, or of uint8/int8 data, is a direct loop over the windows
// (plain layout): each index is the maximum's position in the whole input flattened row-major
// (storage_order 0) or with the spatial dims in column-major order (storage_order 1); padding
// never wins, and the first of equal maxima does.
#include "pool_kernel.h"

#include <limits>

#include "ops/dnnl_util.h"

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
    const bool global = n.op_type == "GlobalAveragePool" || n.op_type == "GlobalMaxPool";
    const bool is_max = n.op_type == "MaxPool" || n.op_type == "GlobalMaxPool";
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

// MaxPool as a loop over the output positions of each (n, c) plane, any number of spatial dims.
template <typename T>
class LoopMaxPool : public Kernel {
 public:
  explicit LoopMaxPool(const KernelInit& k) : x_(k.inputs[0]), y_(k.outputs[0]) {
    if (k.outputs.size() > 1) idx_ = k.outputs[1];
    const ir::Attrs& a = k.node.attrs;
    const size_t spatial = x_.shape().size() - 2;
    kernel_ = a.getInts("kernel_shape");
    strides_ = a.getInts("strides", std::vector<int64_t>(spatial, 1));
    dil_ = a.getInts("dilations", std::vector<int64_t>(spatial, 1));
    pads_ = a.getInts("pads", std::vector<int64_t>(2 * spatial, 0));
    col_major_ = a.getInt("storage_order", 0) != 0;
    opos_.resize(spatial);
    ipos_.resize(spatial);
  }
  void run() override {
    const ir::Shape& xs = x_.shape();
    const ir::Shape& ys = y_.shape();
    const size_t sp = xs.size() - 2;
    const int64_t planes = xs[0] * xs[1];
    int64_t in_plane = 1, out_plane = 1, window = 1;
    for (size_t d = 0; d < sp; ++d) {
      in_plane *= xs[2 + d];
      out_plane *= ys[2 + d];
      window *= kernel_[d];
    }
    const T* x = static_cast<const T*>(x_.data);
    T* y = static_cast<T*>(y_.data);
    auto* idx = static_cast<int64_t*>(idx_.data);
    std::vector<int64_t>& opos = opos_;
    std::vector<int64_t>& ipos = ipos_;
    for (int64_t p = 0; p < planes; ++p)
      for (int64_t o = 0; o < out_plane; ++o) {
        for (int64_t d = static_cast<int64_t>(sp) - 1, r = o; d >= 0; --d) {
          opos[d] = r % ys[2 + d];
          r /= ys[2 + d];
        }
        T best = std::numeric_limits<T>::lowest();
        int64_t best_at = -1;
        for (int64_t w = 0; w < window; ++w) {
          bool inside = true;
          for (int64_t d = static_cast<int64_t>(sp) - 1, r = w; d >= 0; --d) {
            const int64_t kd = r % kernel_[d];
            r /= kernel_[d];
            ipos[d] = opos[d] * strides_[d] - pads_[d] + kd * dil_[d];
            inside = inside && ipos[d] >= 0 && ipos[d] < xs[2 + d];
          }
          if (!inside) continue;
          int64_t at = 0;
          for (size_t d = 0; d < sp; ++d) at = at * xs[2 + d] + ipos[d];
          if (best_at < 0 || x[p * in_plane + at] > best) {
            best = x[p * in_plane + at];
            best_at = at;
          }
        }
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
  std::vector<int64_t> kernel_, strides_, dil_, pads_;
  std::vector<int64_t> opos_, ipos_;  // output and input positions (scratch for run())
  bool col_major_ = false;
};

}  // namespace

Result<std::unique_ptr<Kernel>> createPoolKernel(const KernelInit& k) {
  const bool with_indices = k.outputs.size() > 1 && k.outputs[1].data;
  if (k.node.op_type == "MaxPool" && (with_indices || k.inputs[0].dtype() != ir::DType::F32)) {
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
  if (k.inputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}': pooling of {} is not supported",
                         k.node.name, ir::dtypeName(k.inputs[0].dtype()));
  auto p = std::make_unique<PoolKernel>(k.env);
  ASC_RETURN_IF_ERROR(p->init(k));
  return std::unique_ptr<Kernel>(std::move(p));
}

Layout poolLayout(const ir::Node& n, const std::vector<Layout>& in) {
  return n.outputs.size() > 1 ? Layout::Plain : in[0];
}

}  // namespace asc::ops
