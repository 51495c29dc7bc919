// max_unpool.cpp: MaxUnpool (-> CANN MaxUnpool): the partial inverse of MaxPool. The output is
// zero except at the positions MaxPool's Indices output names (indices into the whole flattened
// output tensor), which take X's values. The output's spatial dims are (in - 1) * stride +
// kernel - pad_begin - pad_end, or the optional output_shape input, which must be a constant: it
// moves into the attribute "output_shape" (so the node runs with two inputs). The indices always
// count in the default shape; with an output_shape each one keeps its coordinates there, so a
// larger output gets zeros past the default one's end in every dim (what the ONNX node test
// expects), and a position outside a smaller output is dropped.
#include "ops/op_util.h"

namespace asc::ops {
namespace {

// The default output shape (N, C, (in - 1) * stride + kernel - pads...); the attributes were
// checked by inferMaxUnpool.
ir::Shape defaultUnpoolShape(const ir::Shape& x, const ir::Attrs& a) {
  const size_t sp = x.size() - 2;
  const auto k = a.getInts("kernel_shape");
  const auto st = a.getInts("strides", std::vector<int64_t>(sp, 1));
  const auto pads = a.getInts("pads", std::vector<int64_t>(2 * sp, 0));
  ir::Shape out = x;
  for (size_t i = 0; i < sp; ++i)
    out[2 + i] = (x[2 + i] - 1) * st[i] + k[i] - pads[i] - pads[i + sp];
  return out;
}

Status canonicalizeMaxUnpool(InferContext& ctx) {
  if (!ctx.hasInput(2)) return Status::ok();
  const ir::Value* v = ctx.constInput(2);
  if (!v)
    return ctx.fail(
        "input 2 ('{}') must be known at compile time (a constant): the output's shape depends "
        "on its values",
        ctx.input(2).name);
  if (ir::isFloat(v->dtype)) return ctx.fail("output_shape must be an integer tensor");
  if (v->shape.size() != 1)
    return ctx.fail("output_shape must be 1-D, it is [{}]", ir::shapeToString(v->shape));
  ctx.attrs().set("output_shape", v->tensor().toInts());
  ctx.truncateInputs(2);
  return Status::ok();
}

Status inferMaxUnpool(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  if (x.size() < 3)
    return ctx.fail("X must have rank >= 3 (N, C, spatial...), it is [{}]", ir::shapeToString(x));
  if (ctx.shape(1) != x)
    return ctx.fail("I has shape [{}], X [{}]; they must match", ir::shapeToString(ctx.shape(1)),
                    ir::shapeToString(x));
  if (ctx.dtype(1) != ir::DType::I64)
    return ctx.fail("I has dtype {}, expected int64", ir::dtypeName(ctx.dtype(1)));
  if (ctx.dtype(0) != ir::DType::F32 && ctx.dtype(0) != ir::DType::F16 &&
      ctx.dtype(0) != ir::DType::BF16)
    return ctx.unsupported("X of dtype {} is not supported (float32/float16)",
                           ir::dtypeName(ctx.dtype(0)));
  const size_t sp = x.size() - 2;
  const ir::Attrs& a = ctx.attrs();
  if (!a.has("kernel_shape")) return ctx.fail("attribute kernel_shape is required");
  const auto k = a.getInts("kernel_shape");
  const auto st = a.getInts("strides", std::vector<int64_t>(sp, 1));
  const auto pads = a.getInts("pads", std::vector<int64_t>(2 * sp, 0));
  if (k.size() != sp || st.size() != sp || pads.size() != 2 * sp)
    return ctx.fail("kernel_shape [{}], strides [{}] and pads [{}] do not match {} spatial dims",
                    ir::shapeToString(k), ir::shapeToString(st), ir::shapeToString(pads), sp);
  for (size_t i = 0; i < sp; ++i) {
    // Bounded so that the arithmetic cannot overflow (checkedByteSize limits the result).
    const int64_t lim = int64_t{1} << 40;
    if (k[i] <= 0 || st[i] <= 0 || pads[i] < 0 || pads[i + sp] < 0 || k[i] > lim || st[i] > lim ||
        pads[i] > lim || pads[i + sp] > lim || x[2 + i] > lim)
      return ctx.fail("kernel_shape [{}] and strides [{}] must be positive, pads [{}] >= 0",
                      ir::shapeToString(k), ir::shapeToString(st), ir::shapeToString(pads));
  }
  ir::Shape out = defaultUnpoolShape(x, a);
  uint64_t bytes;
  for (size_t i = 0; i < sp; ++i)
    if (out[2 + i] <= 0 || !ir::checkedByteSize(out, ctx.dtype(0), &bytes))
      return ctx.fail("the default output shape [{}] is not valid", ir::shapeToString(out));
  if (a.has("output_shape")) {
    const auto os = a.getInts("output_shape");
    if (os.size() != x.size())
      return ctx.fail("output_shape [{}] must have {} dims", ir::shapeToString(os), x.size());
    for (int64_t d : os)
      if (d < 0) return ctx.fail("output_shape [{}] has a negative dim", ir::shapeToString(os));
    out = os;
  }
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

class MaxUnpoolKernel : public Kernel {
 public:
  explicit MaxUnpoolKernel(const KernelInit& k)
      : x_(k.inputs[0].f32()),
        idx_(static_cast<const int64_t*>(k.inputs[1].data)),
        y_(static_cast<float*>(k.outputs[0].data)),
        n_in_(k.inputs[0].numel()),
        n_out_(k.outputs[0].numel()),
        from_(defaultUnpoolShape(k.inputs[0].shape(), k.node.attrs)),
        to_(k.outputs[0].shape()),
        n_from_(ir::numElements(from_)),
        name_(k.node.name) {}
  void run() override {
    std::fill(y_, y_ + n_out_, 0.f);
    const bool same = from_ == to_;
    for (int64_t i = 0; i < n_in_; ++i) {
      const int64_t j = idx_[i];
      if (j < 0 || j >= n_from_)
        throw KernelRunError(
            Status::error(ErrorCode::InvalidParam,
                          "node '{}' (MaxUnpool): index {} (element {} of I) is outside [0, {})",
                          name_, j, i, n_from_));
      const int64_t o = same ? j : moved(j);
      if (o >= 0) y_[o] = x_[i];
    }
  }
  std::string implName() const override { return "max-unpool"; }

 private:
  // Index j of the default shape at the same coordinates in the output, or -1 outside it.
  int64_t moved(int64_t j) const {
    int64_t o = 0, stride = 1;
    for (size_t d = from_.size(); d-- > 0;) {
      const int64_t c = j % from_[d];
      j /= from_[d];
      if (c >= to_[d]) return -1;
      o += c * stride;
      stride *= to_[d];
    }
    return o;
  }

  const float* x_;
  const int64_t* idx_;
  float* y_;
  int64_t n_in_, n_out_;
  ir::Shape from_, to_;
  int64_t n_from_;
  std::string name_;
};

Result<std::unique_ptr<Kernel>> createMaxUnpoolKernel(const KernelInit& k) {
  return std::unique_ptr<Kernel>(std::make_unique<MaxUnpoolKernel>(k));
}

}  // namespace

const OpDef& defMaxUnpool() {
  static const OpDef d = OpDef("MaxUnpool")
                             .kernel(createMaxUnpoolKernel)
                             .onnx(9)
                             .inputs(2, 3)
                             .canonicalize(canonicalizeMaxUnpool)
                             .inferShape(inferMaxUnpool)
                             .flops([](const ir::Node& n) { return n.outputs[0]->numel(); })
                             .summary(
                                 "zeros with X's values at MaxPool's Indices; kernel_shape, "
                                 "strides, pads; output_shape input (constant)");
  return d;
}

}  // namespace asc::ops
