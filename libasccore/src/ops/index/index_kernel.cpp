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

}  // namespace

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
