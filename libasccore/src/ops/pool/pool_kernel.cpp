// pool_kernel.cpp: MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool on oneDNN's
// pooling (any layout). ceil_mode is expressed as extra right padding: the output size is the
// one shape inference computed, and the padding makes oneDNN produce exactly that size.
#include "pool_kernel.h"

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
    if (k.outputs.size() > 1)
      return Status::error(ErrorCode::NotImplemented,
                           "node '{}' (MaxPool): the Indices output is not supported", n.name);
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

}  // namespace

Result<std::unique_ptr<Kernel>> createPoolKernel(const KernelInit& k) {
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
