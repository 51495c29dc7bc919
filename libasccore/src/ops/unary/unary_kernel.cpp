// unary_kernel.cpp: element-wise unary kernels. oneDNN's eltwise primitive (JIT, any layout)
// where it has the function; a plain loop for the rest (HardSigmoid, Erf), and a typed loop for
// Clip on integers or with run-time bounds. Element-wise ops
// keep their input's layout, so blocked activations flow through them without reorders.
#include "unary_kernel.h"

#include <cmath>

#include "ops/dnnl_util.h"
#include "ops/op_util.h"
#include "cpu/parallel.h"

namespace asc::ops {
namespace {

using dnnl::algorithm;

struct EltwiseSpec {
  algorithm alg;
  float alpha, beta;
};

bool eltwiseSpec(const ir::Node& n, EltwiseSpec* s) {
  const auto& a = n.attrs;
  using F = ScalarFn;
  const ScalarFn t = defOf(n).scalarFn();
  if (t == F::Relu)
    *s = {algorithm::eltwise_relu, 0.f, 0.f};
  else if (t == F::LeakyRelu)
    *s = {algorithm::eltwise_relu, a.getFloat("alpha", 0.01f), 0.f};
  else if (t == F::Sigmoid)
    *s = {algorithm::eltwise_logistic, 0.f, 0.f};
  else if (t == F::Tanh)
    *s = {algorithm::eltwise_tanh, 0.f, 0.f};
  else if (t == F::Clip)
    *s = {algorithm::eltwise_clip_v2, a.getFloat("min", -std::numeric_limits<float>::max()),
          a.getFloat("max", std::numeric_limits<float>::max())};
  else if (t == F::HardSwish)
    *s = {algorithm::eltwise_hardswish, 0.f, 0.f};
  else if (t == F::Sqrt)
    *s = {algorithm::eltwise_sqrt, 0.f, 0.f};
  else if (t == F::Exp)
    *s = {algorithm::eltwise_exp, 0.f, 0.f};
  else if (t == F::Gelu)
    *s = {a.getString("approximate", "none") == "tanh" ? algorithm::eltwise_gelu_tanh
                                                       : algorithm::eltwise_gelu_erf,
          0.f, 0.f};
  else if (t == F::Swish)  // x * sigmoid(alpha * x)
    *s = {algorithm::eltwise_swish, a.getFloat("alpha", 1.f), 0.f};
  else
    return false;
  return true;
}

class EltwiseKernel : public cpu::PrimitiveKernel {
 public:
  using PrimitiveKernel::PrimitiveKernel;
  Status init(const KernelInit& k, const EltwiseSpec& s) {
    try {
      auto src = cpu::memOf(k.inputs[0], env_.engine);
      auto dst = cpu::memOf(k.outputs[0], env_.engine);
      dnnl::eltwise_forward::desc d(dnnl::prop_kind::forward_inference, s.alg, src.get_desc(),
                                    s.alpha, s.beta);
      dnnl::eltwise_forward::primitive_desc pd(d, env_.engine);
      set(dnnl::eltwise_forward(pd), pd, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    } catch (const dnnl::error& e) {
      return cpu::dnnlError(k.node, e);
    }
    return Status::ok();
  }
};

// Loops over the physical buffer (padding lanes of a blocked layout included: harmless).
template <typename F>
class LoopKernel : public Kernel {
 public:
  LoopKernel(const TensorRef& in, const TensorRef& out, F f)
      : in_(in.f32()),
        out_(static_cast<float*>(out.data)),
        n_(static_cast<int64_t>(out.bytes / 4)),
        f_(f) {}
  void run() override {
    cpu::parallelFor(n_, 1 << 14, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) out_[i] = f_(in_[i]);
    });
  }
  std::string implName() const override { return "loop"; }

 private:
  const float* in_;
  float* out_;
  int64_t n_;
  F f_;
};

template <typename F>
std::unique_ptr<Kernel> loop(const KernelInit& k, F f) {
  return std::make_unique<LoopKernel<F>>(k.inputs[0], k.outputs[0], f);
}

Status requireF32(const KernelInit& k) {
  if (k.inputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}' ({}): {} input is not supported",
                         k.node.name, k.node.op_type, ir::dtypeName(k.inputs[0].dtype()));
  return Status::ok();
}

// Clip with bounds given as run-time inputs, or on a type other than fp32: a typed loop that
// reads the bounds on every run (input 1/2 when present, else the attributes, else the type's
// limits). Over the physical buffer, like LoopKernel.
template <typename T>
class ClipLoop : public Kernel {
 public:
  explicit ClipLoop(const KernelInit& k)
      : in_(static_cast<const T*>(k.inputs[0].data)),
        out_(static_cast<T*>(k.outputs[0].data)),
        n_(static_cast<int64_t>(k.outputs[0].bytes / sizeof(T))),
        lo_in_(k.inputs.size() > 1 ? static_cast<const T*>(k.inputs[1].data) : nullptr),
        hi_in_(k.inputs.size() > 2 ? static_cast<const T*>(k.inputs[2].data) : nullptr) {
    const ir::Attrs& a = k.node.attrs;
    lo_ = a.has("min") ? static_cast<T>(a.getFloat("min", 0)) : std::numeric_limits<T>::lowest();
    hi_ = a.has("max") ? static_cast<T>(a.getFloat("max", 0)) : std::numeric_limits<T>::max();
  }
  void run() override {
    const T lo = lo_in_ ? *lo_in_ : lo_, hi = hi_in_ ? *hi_in_ : hi_;
    cpu::parallelFor(n_, 1 << 14, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const T x = in_[i];
        out_[i] = x < lo ? lo : x > hi ? hi : x;  // NaN stays NaN
      }
    });
  }
  std::string implName() const override { return "clip-loop"; }

 private:
  const T* in_;
  T* out_;
  int64_t n_;
  const T* lo_in_;
  const T* hi_in_;
  T lo_, hi_;
};

Result<std::unique_ptr<Kernel>> clipLoop(const KernelInit& k) {
  switch (k.inputs[0].dtype()) {
    case ir::DType::F32:
      return std::unique_ptr<Kernel>(std::make_unique<ClipLoop<float>>(k));
    case ir::DType::F64:
      return std::unique_ptr<Kernel>(std::make_unique<ClipLoop<double>>(k));
    case ir::DType::I8:
      return std::unique_ptr<Kernel>(std::make_unique<ClipLoop<int8_t>>(k));
    case ir::DType::U8:
      return std::unique_ptr<Kernel>(std::make_unique<ClipLoop<uint8_t>>(k));
    case ir::DType::I16:
      return std::unique_ptr<Kernel>(std::make_unique<ClipLoop<int16_t>>(k));
    case ir::DType::U16:
      return std::unique_ptr<Kernel>(std::make_unique<ClipLoop<uint16_t>>(k));
    case ir::DType::I32:
      return std::unique_ptr<Kernel>(std::make_unique<ClipLoop<int32_t>>(k));
    case ir::DType::U32:
      return std::unique_ptr<Kernel>(std::make_unique<ClipLoop<uint32_t>>(k));
    case ir::DType::I64:
      return std::unique_ptr<Kernel>(std::make_unique<ClipLoop<int64_t>>(k));
    case ir::DType::U64:
      return std::unique_ptr<Kernel>(std::make_unique<ClipLoop<uint64_t>>(k));
    default:
      return requireF32(k);
  }
}

}  // namespace

Result<std::unique_ptr<Kernel>> createUnaryKernel(const KernelInit& k) {
  const ScalarFn fn = defOf(k.node).scalarFn();
  if (fn == ScalarFn::Clip && (k.inputs.size() > 1 || k.inputs[0].dtype() != ir::DType::F32))
    return clipLoop(k);
  ASC_RETURN_IF_ERROR(requireF32(k));
  const ir::Node& n = k.node;
  if (fn == ScalarFn::HardSigmoid) {
    float alpha = n.attrs.getFloat("alpha", 0.2f), beta = n.attrs.getFloat("beta", 0.5f);
    return loop(
        k, [alpha, beta](float x) { return std::fmin(1.f, std::fmax(0.f, alpha * x + beta)); });
  }
  if (fn == ScalarFn::Erf) return loop(k, [](float x) { return std::erf(x); });
  // oneDNN's JIT log is off by ~1e-6 near 1 (log(1) != 0); the libm one is exact there.
  if (fn == ScalarFn::Log) return loop(k, [](float x) { return std::log(x); });
  EltwiseSpec s;
  if (!eltwiseSpec(n, &s))
    return Status::error(ErrorCode::Internal, "no unary kernel for {}", n.op_type);
  auto kernel = std::make_unique<EltwiseKernel>(k.env);
  ASC_RETURN_IF_ERROR(kernel->init(k, s));
  return std::unique_ptr<Kernel>(std::move(kernel));
}

Layout unaryLayout(const ir::Node& n, const std::vector<Layout>& in) { return in[0]; }

}  // namespace asc::ops
