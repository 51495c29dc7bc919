// tensor_scatter.cpp: TensorScatter (ONNX opset 24), the in-place update of a key/value cache:
// present_cache is past_cache with update written along `axis` (the sequence dim, default -2,
// never the batch dim) starting at write_indices[b] for each batch b (default 0). mode "linear"
// writes update_len consecutive rows, which must fit before the cache's end; "circular" wraps
// them around the cache's length. Any element type: rows are copied as bytes.
#include <cstring>

#include "ops/op_util.h"

namespace asc::ops {
namespace {

Status inferTensorScatter(InferContext& ctx) {
  const ir::Shape &past = ctx.shape(0), &update = ctx.shape(1);
  const int64_t r = ctx.rank(0);
  if (r < 2) return ctx.fail("past_cache has rank {}; it needs a batch and a sequence dim", r);
  auto axis = normalizeAxis(ctx.attrs().getInt("axis", -2), r);
  if (!axis || *axis == 0)
    return ctx.fail("axis {} must name a dim of the rank-{} cache other than the batch dim (0)",
                    ctx.attrs().getInt("axis", -2), r);
  const std::string mode = ctx.attrs().getString("mode", "linear");
  if (mode != "linear" && mode != "circular")
    return ctx.fail("mode '{}' is not linear or circular", mode);
  if (ctx.dtype(1) != ctx.dtype(0))
    return ctx.fail("update is {}, past_cache {}; they must match", ir::dtypeName(ctx.dtype(1)),
                    ir::dtypeName(ctx.dtype(0)));
  bool fits = update.size() == past.size();
  for (size_t i = 0; fits && i < past.size(); ++i)
    fits = static_cast<int64_t>(i) == *axis ? update[i] <= past[i] : update[i] == past[i];
  if (!fits)
    return ctx.fail(
        "update [{}] must equal past_cache [{}] except along axis {}, where it is at most as long",
        ir::shapeToString(update), ir::shapeToString(past), *axis);
  if (ctx.numInputs() > 2 && ctx.hasInput(2) &&
      (ctx.dtype(2) != ir::DType::I64 || ctx.shape(2) != ir::Shape{past[0]}))
    return ctx.fail("write_indices is {} [{}]; it must be int64 [batch] = [{}]",
                    ir::dtypeName(ctx.dtype(2)), ir::shapeToString(ctx.shape(2)), past[0]);
  ctx.attrs().set("axis", *axis);
  ctx.attrs().set("mode", mode);
  ctx.setOutput(0, ctx.dtype(0), past);
  return Status::ok();
}

class TensorScatterKernel : public Kernel {
 public:
  explicit TensorScatterKernel(const KernelInit& k) : name_(k.node.name) {
    const ir::Shape& past = k.inputs[0].shape();
    const ir::Shape& update = k.inputs[1].shape();
    const size_t axis = static_cast<size_t>(k.node.attrs.getInt("axis", -2));
    circular_ = k.node.attrs.getString("mode", "linear") == "circular";
    batch_ = past[0];
    for (size_t i = 1; i < axis; ++i) outer_ *= past[i];
    max_len_ = past[axis];
    len_ = update[axis];
    row_ = ir::dtypeSize(k.inputs[0].dtype());
    for (size_t i = axis + 1; i < past.size(); ++i) row_ *= static_cast<size_t>(past[i]);
    past_ = static_cast<const char*>(k.inputs[0].data);
    update_ = static_cast<const char*>(k.inputs[1].data);
    if (k.inputs.size() > 2 && k.inputs[2].data)
      indices_ = static_cast<const int64_t*>(k.inputs[2].data);
    out_ = static_cast<char*>(k.outputs[0].data);
    bytes_ = k.outputs[0].bytes;
  }

  void run() override {
    for (int64_t b = 0; b < batch_; ++b) {
      const int64_t at = indices_ ? indices_[b] : 0;
      if (at < 0 || at >= std::max<int64_t>(max_len_, 1) || (!circular_ && at + len_ > max_len_))
        throw KernelRunError(Status::error(
            ErrorCode::InvalidParam,
            "node '{}' (TensorScatter): write_indices[{}] = {} with {} rows to write does not fit "
            "the cache's {} rows (mode {})",
            name_, b, at, len_, max_len_, circular_ ? "circular" : "linear"));
    }
    if (out_ != past_) std::memcpy(out_, past_, bytes_);
    for (int64_t b = 0; b < batch_; ++b) {
      const int64_t at = indices_ ? indices_[b] : 0;
      for (int64_t o = 0; o < outer_; ++o) {
        const int64_t block = b * outer_ + o;
        for (int64_t s = 0; s < len_; ++s) {
          const int64_t dst = circular_ ? (at + s) % max_len_ : at + s;
          std::memcpy(out_ + static_cast<size_t>(block * max_len_ + dst) * row_,
                      update_ + static_cast<size_t>(block * len_ + s) * row_, row_);
        }
      }
    }
  }
  std::string implName() const override { return "tensor-scatter"; }

 private:
  std::string name_;
  bool circular_ = false;
  int64_t batch_ = 1, outer_ = 1, max_len_ = 1, len_ = 0;
  size_t row_ = 1, bytes_ = 0;
  const char *past_ = nullptr, *update_ = nullptr;
  const int64_t* indices_ = nullptr;
  char* out_ = nullptr;
};

Result<std::unique_ptr<Kernel>> createTensorScatterKernel(const KernelInit& k) {
  for (size_t i = 0; i < k.inputs.size(); ++i)
    if (k.inputs[i].data && k.inputs[i].layout != Layout::Plain)
      return Status::error(ErrorCode::Internal, "node '{}': TensorScatter takes plain tensors",
                           k.node.name);
  return std::unique_ptr<Kernel>(std::make_unique<TensorScatterKernel>(k));
}

}  // namespace

const OpDef& defTensorScatter() {
  static const OpDef d =
      OpDef("TensorScatter")
          .kernel(createTensorScatterKernel)
          .nativeDtypes()
          .onnx(24)
          .cann("TensorScatter")  // no CANN op of these semantics: ONNX's name
          .inputs(2, 3)
          .inferShape(inferTensorScatter)
          .flops([](const ir::Node& n) { return n.inputs[1]->numel(); })
          .summary(
              "a key/value cache with update written along the sequence axis at each batch's "
              "write index (linear or circular)");
  return d;
}

}  // namespace asc::ops
