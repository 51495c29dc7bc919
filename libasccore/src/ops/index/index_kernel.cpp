// index_kernel.cpp: the kernels of the index ops: one pass over the indices (index_core.h) on the
// bytes of any element type; the scatter reductions (add, mul, max, min) in the element type.
#include "index_kernel.h"

#include <cstring>

#include "index_core.h"

namespace asc::ops {
namespace {

// Calls f with a value of the C++ type of dtype t (an unsigned integer of its size for fp16,
// bf16 and bool: byte copies only).
template <typename F>
void withType(ir::DType t, F f) {
  switch (t) {
    case ir::DType::F32:
      return f(float{});
    case ir::DType::F64:
      return f(double{});
    case ir::DType::I8:
      return f(int8_t{});
    case ir::DType::I16:
      return f(int16_t{});
    case ir::DType::I32:
      return f(int32_t{});
    case ir::DType::I64:
      return f(int64_t{});
    case ir::DType::U16:
    case ir::DType::F16:
    case ir::DType::BF16:
      return f(uint16_t{});
    case ir::DType::U32:
      return f(uint32_t{});
    case ir::DType::U64:
      return f(uint64_t{});
    default:
      return f(uint8_t{});
  }
}

class IndexKernel : public Kernel {
 public:
  explicit IndexKernel(const KernelInit& k) : node_(k.node) {
    type_ = k.inputs[0].dtype();
    ds_ = k.inputs[0].shape();
    is_ = k.inputs[1].shape();
    data_ = static_cast<const uint8_t*>(k.inputs[0].data);
    idx_ = k.inputs[1].data;
    i64_ = k.inputs[1].dtype() == ir::DType::I64;
    upd_ = k.inputs.size() > 2 ? static_cast<const uint8_t*>(k.inputs[2].data) : nullptr;
    out_ = static_cast<uint8_t*>(k.outputs[0].data);
  }
  void run() override { runIndexOp(node_, type_, ds_, data_, is_, idx_, i64_, upd_, out_); }
  std::string implName() const override { return "index"; }

 private:
  const ir::Node& node_;
  ir::DType type_;
  ir::Shape ds_, is_;
  const uint8_t* data_;
  const void* idx_;
  bool i64_;
  const uint8_t* upd_;
  uint8_t* out_;
};

// OneHot: out = off everywhere, then on at [..., index, ...] along the axis (indices of any
// numeric type, negative ones counting from depth, out-of-range ones left off).
class OneHotKernel : public Kernel {
 public:
  explicit OneHotKernel(const KernelInit& k)
      : ind_(k.inputs[0]), vals_(k.inputs[2]), out_(k.outputs[0]) {
    depth_ = k.node.attrs.getInt("depth", 1);
    const int64_t axis = k.node.attrs.getInt("axis", 0);
    const ir::Shape& s = ind_.shape();
    for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d)
      (d < axis ? outer_ : inner_) *= s[d];
  }
  void run() override {
    const size_t es = ir::dtypeSize(out_.dtype());
    const auto* v = static_cast<const uint8_t*>(vals_.data);
    auto* o = static_cast<uint8_t*>(out_.data);
    const int64_t total = outer_ * depth_ * inner_;
    for (int64_t i = 0; i < total; ++i) std::memcpy(o + i * es, v, es);
    for (int64_t a = 0; a < outer_; ++a)
      for (int64_t b = 0; b < inner_; ++b) {
        int64_t idx = readAny(a * inner_ + b);
        if (idx < 0) idx += depth_;
        if (idx < 0 || idx >= depth_) continue;
        std::memcpy(o + ((a * depth_ + idx) * inner_ + b) * es, v + es, es);
      }
  }
  std::string implName() const override { return "one-hot"; }

 private:
  int64_t readAny(int64_t i) const {
    switch (ind_.dtype()) {
      case ir::DType::F32:
        return static_cast<int64_t>(static_cast<const float*>(ind_.data)[i]);
      case ir::DType::F64:
        return static_cast<int64_t>(static_cast<const double*>(ind_.data)[i]);
      case ir::DType::I8:
        return static_cast<const int8_t*>(ind_.data)[i];
      case ir::DType::U8:
        return static_cast<const uint8_t*>(ind_.data)[i];
      case ir::DType::I16:
        return static_cast<const int16_t*>(ind_.data)[i];
      case ir::DType::U16:
        return static_cast<const uint16_t*>(ind_.data)[i];
      case ir::DType::I32:
        return static_cast<const int32_t*>(ind_.data)[i];
      case ir::DType::U32:
        return static_cast<const uint32_t*>(ind_.data)[i];
      default:
        return static_cast<const int64_t*>(ind_.data)[i];
    }
  }
  TensorRef ind_, vals_, out_;
  int64_t depth_ = 1, outer_ = 1, inner_ = 1;
};

}  // namespace

Result<std::unique_ptr<Kernel>> createOneHotKernel(const KernelInit& k) {
  return std::unique_ptr<Kernel>(std::make_unique<OneHotKernel>(k));
}

void runIndexOp(const ir::Node& n, ir::DType t, const ir::Shape& ds, const uint8_t* data,
                const ir::Shape& is, const void* idx, bool i64, const uint8_t* upd, uint8_t* out) {
  const std::string& op = n.op_type;
  const size_t es = ir::dtypeSize(t);
  const int64_t axis = n.attrs.getInt("axis", 0);
  if (op == "GatherElements") {
    index::forEachElementIndex(ds, is, idx, i64, axis, [&](int64_t i, int64_t off) {
      if (off < 0)
        std::memset(out + i * es, 0, es);
      else
        std::memcpy(out + i * es, data + off * es, es);
    });
    return;
  }
  if (op == "GatherND") {
    const int64_t b = n.attrs.getInt("batch_dims", 0);
    index::forEachTuple(ds, is, idx, i64, b, [&](int64_t i, int64_t off, int64_t slice) {
      const size_t bytes = static_cast<size_t>(slice) * es;
      if (off < 0)
        std::memset(out + i * bytes, 0, bytes);
      else
        std::memcpy(out + i * bytes, data + off * es, bytes);
    });
    return;
  }
  // The scatters.
  if (out != data) std::memcpy(out, data, static_cast<size_t>(ir::numElements(ds)) * es);
  const index::Reduction r = index::reductionOf(n.attrs.getString("reduction", "none"));
  withType(t, [&](auto tag) {
    using T = decltype(tag);
    if (op == "ScatterND") {
      index::forEachTuple(ds, is, idx, i64, 0, [&](int64_t i, int64_t off, int64_t slice) {
        if (off >= 0) index::combineRun<T>(out + off * es, upd + i * slice * es, slice, r);
      });
    } else {  // ScatterElements, Scatter
      index::forEachElementIndex(ds, is, idx, i64, axis, [&](int64_t i, int64_t off) {
        if (off >= 0) index::combineRun<T>(out + off * es, upd + i * es, 1, r);
      });
    }
  });
}

Result<std::unique_ptr<Kernel>> createIndexKernel(const KernelInit& k) {
  return std::unique_ptr<Kernel>(std::make_unique<IndexKernel>(k));
}

}  // namespace asc::ops
