// binary_kernel.cpp: Add, Sub, Mul, Div, Pow, Max, Min, Sum, Mod, the comparisons (Equal,
// Greater, Less, GreaterOrEqual, LessOrEqual), And/Or/Xor, BitShift and Where with numpy
// broadcasting. Rows of the innermost output dimension are the unit of work; each input walks
// them with stride 1 or 0 (broadcast), so the inner loop vectorises.
#include "binary_kernel.h"

#include <cmath>
#include <cstring>
#include <type_traits>

#include "ops/op_util.h"
#include "ops/dnnl_util.h"
#include "cpu/parallel.h"

namespace asc::ops {
namespace {

struct Broadcast {
  ir::Shape out;
  std::vector<std::vector<int64_t>> strides;  // per input, aligned to out's rank; 0 = broadcast
  int64_t inner = 1, outer = 1;

  void init(const std::vector<ir::Shape>& ins, const ir::Shape& o) {
    out = o;
    const size_t r = o.size();
    for (const auto& s : ins) {
      auto st = stridesOf(s);
      std::vector<int64_t> a(r, 0);
      for (size_t k = 0; k < s.size(); ++k) a[r - s.size() + k] = s[k] == 1 ? 0 : st[k];
      strides.push_back(std::move(a));
    }
    inner = r ? o.back() : 1;
    outer = inner ? ir::numElements(o) / inner : 0;
  }
  // Offsets of row `row` in each input.
  void offsets(int64_t row, int64_t* off) const {
    const size_t r = out.size();
    for (size_t k = 0; k < strides.size(); ++k) off[k] = 0;
    int64_t rem = row;
    for (int64_t d = static_cast<int64_t>(r) - 2; d >= 0; --d) {
      int64_t idx = rem % out[d];
      rem /= out[d];
      for (size_t k = 0; k < strides.size(); ++k) off[k] += idx * strides[k][d];
    }
  }
  int64_t innerStride(size_t k) const { return out.empty() ? 0 : strides[k].back(); }
};

template <typename A, typename B, typename O, typename F>
class Binary2 : public Kernel {
 public:
  Binary2(const A* a, const B* b, O* o, Broadcast bc, F f)
      : a_(a), b_(b), o_(o), bc_(std::move(bc)), f_(f) {}
  void run() override {
    const int64_t inner = bc_.inner, sa = bc_.innerStride(0), sb = bc_.innerStride(1);
    cpu::parallelFor(bc_.outer, std::max<int64_t>(1, (1 << 14) / std::max<int64_t>(inner, 1)),
                     [&](int64_t rb, int64_t re) {
                       int64_t off[2];
                       for (int64_t row = rb; row < re; ++row) {
                         bc_.offsets(row, off);
                         const A* a = a_ + off[0];
                         const B* b = b_ + off[1];
                         O* o = o_ + row * inner;
                         if (sa == 1 && sb == 1)
                           for (int64_t j = 0; j < inner; ++j) o[j] = f_(a[j], b[j]);
                         else if (sa == 1 && sb == 0)
                           for (int64_t j = 0; j < inner; ++j) o[j] = f_(a[j], b[0]);
                         else if (sa == 0 && sb == 1)
                           for (int64_t j = 0; j < inner; ++j) o[j] = f_(a[0], b[j]);
                         else
                           for (int64_t j = 0; j < inner; ++j) o[j] = f_(a[j * sa], b[j * sb]);
                       }
                     });
  }
  std::string implName() const override { return "broadcast"; }

 private:
  const A* a_;
  const B* b_;
  O* o_;
  Broadcast bc_;
  F f_;
};

// Blocked (identical buffers, scalar constants): element-wise over the physical buffer.
template <typename F>
class Flat2 : public Kernel {
 public:
  Flat2(const float* a, const float* b, float* o, int64_t n, bool a_scalar, bool b_scalar, F f)
      : a_(a), b_(b), o_(o), n_(n), as_(a_scalar), bs_(b_scalar), f_(f) {}
  void run() override {
    cpu::parallelFor(n_, 1 << 14, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) o_[i] = f_(a_[as_ ? 0 : i], b_[bs_ ? 0 : i]);
    });
  }
  std::string implName() const override { return "flat"; }

 private:
  const float* a_;
  const float* b_;
  float* o_;
  int64_t n_;
  bool as_, bs_;
  F f_;
};

template <typename T, typename O, typename F>
std::unique_ptr<Kernel> make2(const TensorRef& a, const TensorRef& b, const TensorRef& o, F f) {
  Broadcast bc;
  bc.init({a.shape(), b.shape()}, o.shape());
  return std::make_unique<Binary2<T, T, O, F>>(static_cast<const T*>(a.data),
                                               static_cast<const T*>(b.data),
                                               static_cast<O*>(o.data), std::move(bc), f);
}

template <typename T>
Result<std::unique_ptr<Kernel>> arith(const std::string& op, const TensorRef& a, const TensorRef& b,
                                      const TensorRef& o) {
  if (op == "Add" || op == "Sum") return make2<T, T>(a, b, o, [](T x, T y) { return T(x + y); });
  if (op == "Sub") return make2<T, T>(a, b, o, [](T x, T y) { return T(x - y); });
  if (op == "Mul") return make2<T, T>(a, b, o, [](T x, T y) { return T(x * y); });
  if (op == "Div")
    return make2<T, T>(a, b, o, [](T x, T y) {
      if constexpr (std::is_floating_point<T>::value) {
        return T(x / y);
      } else {
        if (y == T(0)) return T(0);  // integer division by zero: 0, never a trap
        if constexpr (std::is_signed<T>::value)
          if (y == T(-1)) return T(T(0) - static_cast<std::make_unsigned_t<T>>(x));  // wraps
        return T(x / y);
      }
    });
  if (op == "Max") return make2<T, T>(a, b, o, [](T x, T y) { return x > y || x != x ? x : y; });
  if (op == "Min") return make2<T, T>(a, b, o, [](T x, T y) { return x < y || x != x ? x : y; });
  if (op == "Pow") {
    // Squares and square roots (LayerNorm patterns) without calling pow per element.
    if (b.value->isConstant() && b.numel() == 1) {
      const double e = b.value->tensor().floatAt(0);
      if (e == 2) return make2<T, T>(a, b, o, [](T x, T) { return T(x * x); });
      if (e == 1) return make2<T, T>(a, b, o, [](T x, T) { return x; });
      if (e == 0.5) return make2<T, T>(a, b, o, [](T x, T) { return T(std::sqrt(double(x))); });
    }
    if (std::is_same<T, float>::value)
      return make2<T, T>(a, b, o, [](T x, T y) { return T(std::pow(float(x), float(y))); });
    return make2<T, T>(a, b, o, [](T x, T y) { return T(std::pow(double(x), double(y))); });
  }
  if (op == "PRelu") return make2<T, T>(a, b, o, [](T x, T s) { return x < T(0) ? T(s * x) : x; });
  if (op == "Equal") return make2<T, uint8_t>(a, b, o, [](T x, T y) { return uint8_t(x == y); });
  if (op == "Greater") return make2<T, uint8_t>(a, b, o, [](T x, T y) { return uint8_t(x > y); });
  if (op == "Less") return make2<T, uint8_t>(a, b, o, [](T x, T y) { return uint8_t(x < y); });
  if (op == "GreaterOrEqual")
    return make2<T, uint8_t>(a, b, o, [](T x, T y) { return uint8_t(x >= y); });
  if (op == "LessOrEqual")
    return make2<T, uint8_t>(a, b, o, [](T x, T y) { return uint8_t(x <= y); });
  // Mod with fmod=1: C fmod (the result has the dividend's sign); fmod=0 (integers): the
  // result has the divisor's sign, as Python's %. x % 0 gives 0 rather than a trap.
  if (op == "FMod")
    return make2<T, T>(a, b, o, [](T x, T y) {
      if constexpr (std::is_floating_point<T>::value) {
        return T(std::fmod(x, y));
      } else {
        if (y == T(0)) return T(0);
        if constexpr (std::is_signed<T>::value)
          if (y == T(-1)) return T(0);
        return T(x % y);
      }
    });
  if (op == "Mod")
    return make2<T, T>(a, b, o, [](T x, T y) {
      if constexpr (std::is_floating_point<T>::value) {
        T r = std::fmod(x, y);
        return r != T(0) && ((r < T(0)) != (y < T(0))) ? T(r + y) : r;
      } else {
        if (y == T(0)) return T(0);
        if constexpr (std::is_signed<T>::value) {
          if (y == T(-1)) return T(0);
          T r = T(x % y);
          return r != T(0) && ((r < T(0)) != (y < T(0))) ? T(r + y) : r;
        } else {
          return T(x % y);
        }
      }
    });
  if constexpr (std::is_integral<T>::value) {
    if (op == "And") return make2<T, T>(a, b, o, [](T x, T y) { return T(x && y); });
    if (op == "Or") return make2<T, T>(a, b, o, [](T x, T y) { return T(x || y); });
    if (op == "Xor") return make2<T, T>(a, b, o, [](T x, T y) { return T(!x != !y); });
    if (op == "BitwiseAnd") return make2<T, T>(a, b, o, [](T x, T y) { return T(x & y); });
    if (op == "BitwiseOr") return make2<T, T>(a, b, o, [](T x, T y) { return T(x | y); });
    if (op == "BitwiseXor") return make2<T, T>(a, b, o, [](T x, T y) { return T(x ^ y); });
    // Shifting by the type's width or more gives 0 (C leaves it undefined).
    if (op == "ShiftLeft")
      return make2<T, T>(a, b, o,
                         [](T x, T y) { return y >= T(sizeof(T) * 8) ? T(0) : T(x << y); });
    if (op == "ShiftRight")
      return make2<T, T>(a, b, o,
                         [](T x, T y) { return y >= T(sizeof(T) * 8) ? T(0) : T(x >> y); });
  }
  return Status::error(ErrorCode::Internal, "no binary kernel for {}", op);
}

Result<std::unique_ptr<Kernel>> dispatch(const std::string& op, const TensorRef& a,
                                         const TensorRef& b, const TensorRef& o) {
  // bool computes as its bytes (logic ops).
  const ir::DType t = a.dtype() == ir::DType::Bool ? ir::DType::U8 : a.dtype();
  return ir::visitNumeric(
      t,
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        return arith<T>(op, a, b, o);
      },
      [&]() -> Result<std::unique_ptr<Kernel>> {
        return Status::error(ErrorCode::NotImplemented, "{} on {} tensors is not supported", op,
                             ir::dtypeName(a.dtype()));
      });
}

template <typename T>
class WhereKernel : public Kernel {
 public:
  WhereKernel(const KernelInit& k)
      : c_(static_cast<const uint8_t*>(k.inputs[0].data)),
        x_(static_cast<const T*>(k.inputs[1].data)),
        y_(static_cast<const T*>(k.inputs[2].data)),
        o_(static_cast<T*>(k.outputs[0].data)) {
    bc_.init({k.inputs[0].shape(), k.inputs[1].shape(), k.inputs[2].shape()}, k.outputs[0].shape());
  }
  void run() override {
    const int64_t inner = bc_.inner;
    const int64_t s0 = bc_.innerStride(0), s1 = bc_.innerStride(1), s2 = bc_.innerStride(2);
    cpu::parallelFor(bc_.outer, 64, [&](int64_t rb, int64_t re) {
      int64_t off[3];
      for (int64_t row = rb; row < re; ++row) {
        bc_.offsets(row, off);
        for (int64_t j = 0; j < inner; ++j)
          o_[row * inner + j] = c_[off[0] + j * s0] ? x_[off[1] + j * s1] : y_[off[2] + j * s2];
      }
    });
  }
  std::string implName() const override { return "broadcast"; }

 private:
  const uint8_t* c_;
  const T* x_;
  const T* y_;
  T* o_;
  Broadcast bc_;
};

// Pow with any pair of numeric types (the exponent's type may differ from the base's): computed
// in double, written in the output's type.
class PowMixed : public Kernel {
 public:
  explicit PowMixed(const KernelInit& k) : a_(k.inputs[0]), b_(k.inputs[1]), o_(k.outputs[0]) {
    bc_.init({a_.shape(), b_.shape()}, o_.shape());
  }
  void run() override {
    ir::Tensor ta{a_.dtype(), {a_.numel()}, std::make_shared<ir::Blob>(a_.data, a_.bytes, nullptr)};
    ir::Tensor tb{b_.dtype(), {b_.numel()}, std::make_shared<ir::Blob>(b_.data, b_.bytes, nullptr)};
    TensorBuilder out(o_.dtype(), {o_.numel()});
    const int64_t inner = bc_.inner, sa = bc_.innerStride(0), sb = bc_.innerStride(1);
    int64_t off[2];
    for (int64_t row = 0; row < bc_.outer; ++row) {
      bc_.offsets(row, off);
      for (int64_t j = 0; j < inner; ++j) {
        double v = std::pow(ta.floatAt(off[0] + j * sa), tb.floatAt(off[1] + j * sb));
        if (ir::isFloat(o_.dtype()))
          out.setFloat(row * inner + j, v);
        else
          out.setInt(row * inner + j, static_cast<int64_t>(v));
      }
    }
    std::memcpy(o_.data, out.bytes.data(), out.bytes.size());
  }
  std::string implName() const override { return "pow-mixed"; }

 private:
  TensorRef a_, b_, o_;
  Broadcast bc_;
};

// Blocked tensors where one operand is broadcast over the spatial dims ([N, C, 1, 1], the
// squeeze-and-excitation scale): oneDNN's binary primitive, which understands the layout.
class DnnlBinary : public cpu::PrimitiveKernel {
 public:
  using PrimitiveKernel::PrimitiveKernel;
  Status init(const KernelInit& k, int full) {
    static const std::pair<const char*, dnnl::algorithm> kAlgs[] = {
        {"Add", dnnl::algorithm::binary_add}, {"Sub", dnnl::algorithm::binary_sub},
        {"Mul", dnnl::algorithm::binary_mul}, {"Div", dnnl::algorithm::binary_div},
        {"Max", dnnl::algorithm::binary_max}, {"Min", dnnl::algorithm::binary_min}};
    dnnl::algorithm alg = dnnl::algorithm::undef;
    for (const auto& [name, a] : kAlgs)
      if (k.node.op_type == name) alg = a;
    if (alg == dnnl::algorithm::undef)
      return Status::error(ErrorCode::Internal, "no oneDNN binary for {}", k.node.op_type);
    try {
      auto a = cpu::memOf(k.inputs[full], env_.engine);
      auto b = cpu::memOf(k.inputs[1 - full], env_.engine);
      auto o = cpu::memOf(k.outputs[0], env_.engine);
      dnnl::binary::desc d(alg, a.get_desc(), b.get_desc(), o.get_desc());
      dnnl::binary::primitive_desc pd(d, env_.engine);
      set(dnnl::binary(pd), pd, {{DNNL_ARG_SRC_0, a}, {DNNL_ARG_SRC_1, b}, {DNNL_ARG_DST, o}});
    } catch (const dnnl::error& e) {
      return cpu::dnnlError(k.node, e);
    }
    return Status::ok();
  }
};

// Variadic Sum/Max/Min: the first pair into the output, then the output with each further input.
class Chain : public Kernel {
 public:
  std::vector<std::unique_ptr<Kernel>> steps;
  void run() override {
    for (auto& s : steps) s->run();
  }
  std::string implName() const override { return "broadcast-chain"; }
};

// The kernel a node runs: Mod and BitShift pick theirs by attribute.
std::string kernelOp(const ir::Node& n) {
  if (n.op_type == "Mod") return n.attrs.getInt("fmod", 0) ? "FMod" : "Mod";
  if (n.op_type == "Mean") return "Sum";  // then scaled by 1/k
  if (n.op_type == "BitShift")
    return n.attrs.getString("direction", "") == "LEFT" ? "ShiftLeft" : "ShiftRight";
  return n.op_type;
}

// Mean: the Sum of the inputs, then every output element divided by their count.
class ScaleAfter : public Kernel {
 public:
  ScaleAfter(std::unique_ptr<Kernel> sum, const TensorRef& o, double scale)
      : sum_(std::move(sum)), o_(o), scale_(scale) {}
  void run() override {
    sum_->run();
    const int64_t n = o_.numel();
    if (o_.dtype() == ir::DType::F64) {
      double* p = static_cast<double*>(o_.data);
      for (int64_t i = 0; i < n; ++i) p[i] *= scale_;
    } else {
      float* p = static_cast<float*>(o_.data);
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<float>(p[i] * scale_);
    }
  }
  std::string implName() const override { return "mean"; }

 private:
  std::unique_ptr<Kernel> sum_;
  TensorRef o_;
  double scale_;
};

Result<std::unique_ptr<Kernel>> createSumKernel(const KernelInit& k);

}  // namespace

Result<std::unique_ptr<Kernel>> createBinaryKernel(const KernelInit& k) {
  if (k.node.op_type == "Mean") {
    if (k.outputs[0].dtype() != ir::DType::F32 && k.outputs[0].dtype() != ir::DType::F64)
      return Status::error(ErrorCode::NotImplemented, "node '{}' (Mean): {} is not supported",
                           k.node.name, ir::dtypeName(k.outputs[0].dtype()));
    ASC_TRY(auto sum, createSumKernel(k));
    return std::unique_ptr<Kernel>(std::make_unique<ScaleAfter>(
        std::move(sum), k.outputs[0], 1.0 / static_cast<double>(k.inputs.size())));
  }
  return createSumKernel(k);
}

namespace {

// Every op of createBinaryKernel but Mean's final scale.
Result<std::unique_ptr<Kernel>> createSumKernel(const KernelInit& k) {
  const std::string op = kernelOp(k.node);
  const TensorRef& o = k.outputs[0];
  if (op == "Where") {
    switch (k.inputs[1].dtype()) {
      case ir::DType::F32:
      case ir::DType::I32:
      case ir::DType::U32:
        return std::unique_ptr<Kernel>(std::make_unique<WhereKernel<uint32_t>>(k));
      case ir::DType::I64:
      case ir::DType::U64:
      case ir::DType::F64:
        return std::unique_ptr<Kernel>(std::make_unique<WhereKernel<uint64_t>>(k));
      case ir::DType::F16:
      case ir::DType::I16:
      case ir::DType::U16:
      case ir::DType::BF16:
        return std::unique_ptr<Kernel>(std::make_unique<WhereKernel<uint16_t>>(k));
      default:
        return std::unique_ptr<Kernel>(std::make_unique<WhereKernel<uint8_t>>(k));
    }
  }
  if (op == "Pow" &&
      (k.inputs[0].dtype() != ir::DType::F32 || k.inputs[1].dtype() != ir::DType::F32))
    return std::unique_ptr<Kernel>(std::make_unique<PowMixed>(k));
  if (k.inputs.size() == 1) {  // Sum/Max/Min of one input: a copy
    struct Copy : Kernel {
      const void* s;
      void* d;
      size_t n;
      void run() override { std::memcpy(d, s, n); }
    };
    auto c = std::make_unique<Copy>();
    c->s = k.inputs[0].data;
    c->d = o.data;
    c->n = o.bytes;
    return std::unique_ptr<Kernel>(std::move(c));
  }
  if (o.layout == Layout::Blocked) {
    const TensorRef& a = k.inputs[0];
    const TensorRef& b = k.inputs[1];
    const bool a_full = a.shape() == o.shape(), b_full = b.shape() == o.shape();
    if ((!a_full && a.numel() != 1) || (!b_full && b.numel() != 1)) {
      auto d = std::make_unique<DnnlBinary>(k.env);
      ASC_RETURN_IF_ERROR(d->init(k, a_full ? 0 : 1));
      return std::unique_ptr<Kernel>(std::move(d));
    }
    const int64_t n = static_cast<int64_t>(o.bytes / 4);
    const bool as = a.numel() == 1, bs = b.numel() == 1;
    auto flat = [&](auto f) -> std::unique_ptr<Kernel> {
      return std::make_unique<Flat2<decltype(f)>>(a.f32(), b.f32(), static_cast<float*>(o.data), n,
                                                  as, bs, f);
    };
    if (op == "Add" || op == "Sum") return flat([](float x, float y) { return x + y; });
    if (op == "Sub") return flat([](float x, float y) { return x - y; });
    if (op == "Mul") return flat([](float x, float y) { return x * y; });
    if (op == "Div") return flat([](float x, float y) { return x / y; });
    if (op == "Max") return flat([](float x, float y) { return x > y || x != x ? x : y; });
    if (op == "Min") return flat([](float x, float y) { return x < y || x != x ? x : y; });
    if (op == "Pow") return flat([](float x, float y) { return std::pow(x, y); });
  }
  if (k.inputs.size() == 2) return dispatch(op, k.inputs[0], k.inputs[1], o);
  auto chain = std::make_unique<Chain>();
  ASC_TRY(auto first, dispatch(op, k.inputs[0], k.inputs[1], o));
  chain->steps.push_back(std::move(first));
  TensorRef acc = o;
  for (size_t i = 2; i < k.inputs.size(); ++i) {
    ASC_TRY(auto step, dispatch(op, acc, k.inputs[i], o));
    chain->steps.push_back(std::move(step));
  }
  return std::unique_ptr<Kernel>(std::move(chain));
}

}  // namespace

Layout binaryLayout(const ir::Node& n, const std::vector<Layout>& in) {
  static const char* const kBlockable[] = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Sum"};
  bool blockable = false;
  for (const char* b : kBlockable) blockable |= n.op_type == b;
  if (!blockable || n.inputs.size() != 2) return Layout::Plain;
  const ir::Shape& out = n.outputs[0]->shape;
  // Spatial broadcast: [N, C, 1, ...] against the output's N and C.
  auto spatialBroadcast = [&](const ir::Shape& s) {
    if (s.size() != out.size() || s.size() < 3 || s[0] != out[0] || s[1] != out[1]) return false;
    for (size_t i = 2; i < s.size(); ++i)
      if (s[i] != 1) return false;
    return true;
  };
  int full = 0;
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    const ir::Value* v = n.inputs[i];
    if (v->isConstant()) {
      if (v->numel() != 1) return Layout::Plain;
      continue;
    }
    if (in[i] != Layout::Blocked) return Layout::Plain;
    if (v->shape == out) {
      ++full;
    } else if (!spatialBroadcast(v->shape)) {
      return Layout::Plain;
    } else if (i == 0 && (n.op_type == "Sub" || n.op_type == "Div")) {
      return Layout::Plain;  // oneDNN broadcasts its second operand only
    }
  }
  return full > 0 ? Layout::Blocked : Layout::Plain;
}

}  // namespace asc::ops
