// math_kernel.cpp: one loop kernel for every element-wise math op of math.cpp, instantiated per
// element type: float functions on fp32 (fp16/bf16 arrive converted) and fp64, Abs/Neg/Sign on
// every numeric type, IsNaN/IsInf (float -> bool) and Not (bool -> bool). The float-only ops
// keep a blocked input's layout and walk the physical buffer (padding lanes included: harmless).
#include "math_kernel.h"

#include <cstdint>
#include <type_traits>

#include "cpu/parallel.h"
#include "math_fn.h"
#include "ops/op_util.h"

namespace asc::ops {
namespace {

template <typename In, typename Out, typename F>
class MapKernel : public Kernel {
 public:
  MapKernel(const KernelInit& k, F f)
      : in_(static_cast<const In*>(k.inputs[0].data)),
        out_(static_cast<Out*>(k.outputs[0].data)),
        n_(static_cast<int64_t>(k.outputs[0].bytes / sizeof(Out))),
        f_(f) {}
  void run() override {
    cpu::parallelFor(n_, 1 << 14, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) out_[i] = static_cast<Out>(f_(in_[i]));
    });
  }
  std::string implName() const override { return "loop"; }

 private:
  const In* in_;
  Out* out_;
  int64_t n_;
  F f_;
};

template <typename In, typename Out, typename F>
Result<std::unique_ptr<Kernel>> make(const KernelInit& k, F f) {
  return std::unique_ptr<Kernel>(std::make_unique<MapKernel<In, Out, F>>(k, f));
}

Status unsupportedDtype(const KernelInit& k) {
  return Status::error(ErrorCode::NotImplemented, "node '{}' ({}): {} input is not supported",
                       k.node.name, k.node.op_type, ir::dtypeName(k.inputs[0].dtype()));
}

// Same-type map on a float buffer.
template <typename F>
Result<std::unique_ptr<Kernel>> floatMap(const KernelInit& k, F f) {
  return ir::visitNumeric(
      k.inputs[0].dtype(),
      [&](auto tag) -> Result<std::unique_ptr<Kernel>> {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_floating_point<T>::value) return make<T, T>(k, f);
        return unsupportedDtype(k);
      },
      [&]() -> Result<std::unique_ptr<Kernel>> { return unsupportedDtype(k); });
}

// Same-type map on any numeric buffer, integers exactly.
template <typename F>
Result<std::unique_ptr<Kernel>> numericMap(const KernelInit& k, F f) {
  return ir::visitNumeric(
      k.inputs[0].dtype(),
      [&](auto tag) -> Result<std::unique_ptr<Kernel>> {
        using T = typename decltype(tag)::type;
        return make<T, T>(k, f);
      },
      [&]() -> Result<std::unique_ptr<Kernel>> { return unsupportedDtype(k); });
}

// Float -> bool test.
template <typename F>
Result<std::unique_ptr<Kernel>> predicateMap(const KernelInit& k, F f) {
  return ir::visitNumeric(
      k.inputs[0].dtype(),
      [&](auto tag) -> Result<std::unique_ptr<Kernel>> {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_floating_point<T>::value) return make<T, uint8_t>(k, f);
        return unsupportedDtype(k);
      },
      [&]() -> Result<std::unique_ptr<Kernel>> { return unsupportedDtype(k); });
}

}  // namespace

Result<std::unique_ptr<Kernel>> createMathKernel(const KernelInit& k) {
  const ir::Node& n = k.node;
  Result<std::unique_ptr<Kernel>> r =
      Status::error(ErrorCode::Internal, "no math kernel for {}", n.op_type);
  const ScalarFn fn = defOf(n).scalarFn();
  if (fn == ScalarFn::Not) {
    if (k.inputs[0].dtype() != ir::DType::Bool) return unsupportedDtype(k);
    return make<uint8_t, uint8_t>(k, [](uint8_t x) { return uint8_t(x == 0); });
  }
  if (math::withFloatFn(fn, n.attrs, [&](auto f) { r = floatMap(k, f); })) return r;
  if (math::withNumericFn(fn, [&](auto f) { r = numericMap(k, f); })) return r;
  if (math::withPredicate(fn, n.attrs, [&](auto f) { r = predicateMap(k, f); })) return r;
  return r;
}

Layout mathLayout(const ir::Node& n, const std::vector<Layout>& in) {
  return math::withFloatFn(defOf(n).scalarFn(), n.attrs, [](auto) {}) ? in[0] : Layout::Plain;
}

}  // namespace asc::ops
