// softmax_kernel.cpp: oneDNN softmax_v2 (accurate / log) along one axis of a plain tensor, and a
// loop for Hardmax (one-hot of the first maximum) on the same view.
// Before opset 13 the op coerces the input to 2-D at `axis`; that is the same computation as a
// softmax over the last axis of the [prod(d[:axis]), prod(d[axis:])] view.
#include "softmax_kernel.h"

#include "ops/op_util.h"
#include "ops/dnnl_util.h"

namespace asc::ops {
namespace {

class SoftmaxKernel : public cpu::PrimitiveKernel {
 public:
  using PrimitiveKernel::PrimitiveKernel;
  Status init(const KernelInit& k) {
    const ir::Node& n = k.node;
    const ir::Shape& s = k.inputs[0].shape();
    const int64_t rank = static_cast<int64_t>(s.size());
    const bool coerce = n.attrs.getInt("coerce_2d", 0) != 0;
    int64_t axis = n.attrs.getInt("axis", coerce ? 1 : -1);
    if (axis < 0) axis += rank;
    ir::Shape view = s;
    if (view.empty()) view = {1};
    if (coerce) {
      int64_t outer = 1, inner = 1;
      for (int64_t i = 0; i < rank; ++i) (i < axis ? outer : inner) *= s[i];
      view = {outer, inner};
      axis = 1;
    }
    try {
      dnnl::memory::desc md(cpu::dimsOf(view), dnnl::memory::data_type::f32,
                            cpu::plainTag(view.size()));
      auto alg = n.op_type == "LogSoftmax" ? dnnl::algorithm::softmax_log
                                           : dnnl::algorithm::softmax_accurate;
      dnnl::softmax_v2_forward::desc d(dnnl::prop_kind::forward_inference, alg, md, md,
                                       static_cast<int>(axis));
      dnnl::softmax_v2_forward::primitive_desc pd(d, env_.engine);
      set(dnnl::softmax_v2_forward(pd), pd,
          {{DNNL_ARG_SRC, dnnl::memory(md, env_.engine, k.inputs[0].data)},
           {DNNL_ARG_DST, dnnl::memory(md, env_.engine, k.outputs[0].data)}});
    } catch (const dnnl::error& e) {
      return cpu::dnnlError(n, e);
    }
    return Status::ok();
  }
};

template <typename T>
class HardmaxKernel : public Kernel {
 public:
  explicit HardmaxKernel(const KernelInit& k)
      : in_(static_cast<const T*>(k.inputs[0].data)), out_(static_cast<T*>(k.outputs[0].data)) {
    softmaxView(k.node, k.inputs[0].shape(), &outer_, &n_, &inner_);
  }
  void run() override { hardmax(in_, out_, outer_, n_, inner_); }
  std::string implName() const override { return "hardmax"; }

 private:
  const T* in_;
  T* out_;
  int64_t outer_ = 1, n_ = 1, inner_ = 1;
};

}  // namespace

void softmaxView(const ir::Node& node, const ir::Shape& s, int64_t* outer, int64_t* n,
                 int64_t* inner) {
  const int64_t rank = static_cast<int64_t>(s.size());
  const bool coerce = node.attrs.getInt("coerce_2d", 0) != 0;
  int64_t axis = node.attrs.getInt("axis", coerce ? 1 : -1);
  if (axis < 0) axis += rank;
  *outer = *n = *inner = 1;
  for (int64_t i = 0; i < rank; ++i) {
    if (i < axis)
      *outer *= s[i];
    else if (i == axis || coerce)
      *n *= s[i];
    else
      *inner *= s[i];
  }
}

Result<std::unique_ptr<Kernel>> createHardmaxKernel(const KernelInit& k) {
  switch (k.inputs[0].dtype()) {
    case ir::DType::F32:
      return std::unique_ptr<Kernel>(std::make_unique<HardmaxKernel<float>>(k));
    case ir::DType::F64:
      return std::unique_ptr<Kernel>(std::make_unique<HardmaxKernel<double>>(k));
    default:
      return Status::error(ErrorCode::NotImplemented, "node '{}': hardmax of {} is not supported",
                           k.node.name, ir::dtypeName(k.inputs[0].dtype()));
  }
}

Result<std::unique_ptr<Kernel>> createSoftmaxKernel(const KernelInit& k) {
  if (k.inputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}': softmax of {} is not supported",
                         k.node.name, ir::dtypeName(k.inputs[0].dtype()));
  auto p = std::make_unique<SoftmaxKernel>(k.env);
  ASC_RETURN_IF_ERROR(p->init(k));
  return std::unique_ptr<Kernel>(std::move(p));
}

}  // namespace asc::ops
