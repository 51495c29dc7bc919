// affine_grid.cpp: AffineGrid (ONNX opset 20), the sampling grid GridSample reads: for each
// output position of an image of `size` ([N, C, H, W] or [N, C, D, H, W], a constant), its
// normalized coordinates in [-1, 1] (x along W first; with align_corners the end points are the
// corner pixels' centres, else their outer edges) transformed by theta ([N, 2, 3] or [N, 3, 4]).
// Output [N, H, W, 2] or [N, D, H, W, 3].
#include "ops/op_util.h"

namespace asc::ops {
namespace {

Status canonAffineGrid(InferContext& ctx) {
  if (ctx.numInputs() < 2) return Status::ok();
  if (!ctx.constInput(1))
    return ctx.fail("size (input 1) must be known at compile time (a constant)");
  ASC_RETURN_IF_ERROR(ctx.moveInputToInts(1, "size"));
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferAffineGrid(InferContext& ctx) {
  const auto size = ctx.attrs().getInts("size");
  const ir::Shape& theta = ctx.shape(0);
  if (size.size() != 4 && size.size() != 5)
    return ctx.fail("size [{}] must be [N, C, H, W] or [N, C, D, H, W]", ir::shapeToString(size));
  const int64_t sp = static_cast<int64_t>(size.size()) - 2;
  if (theta != ir::Shape{size[0], sp, sp + 1})
    return ctx.fail("theta [{}] must be [N, {}, {}] for size [{}]", ir::shapeToString(theta), sp,
                    sp + 1, ir::shapeToString(size));
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("theta dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  for (int64_t v : size)
    if (v <= 0) return ctx.fail("size [{}] must be positive", ir::shapeToString(size));
  ir::Shape out{size[0]};
  out.insert(out.end(), size.begin() + 2, size.end());
  out.push_back(sp);
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

class AffineGridKernel : public Kernel {
 public:
  explicit AffineGridKernel(const KernelInit& k)
      : size_(k.node.attrs.getInts("size")),
        align_(k.node.attrs.getInt("align_corners", 0) != 0),
        theta_(k.inputs[0].f32()),
        y_(static_cast<float*>(k.outputs[0].data)) {}
  void run() override {
    const int64_t sp = static_cast<int64_t>(size_.size()) - 2;
    // Spatial dims in output order (D,) H, W; coordinates in theta's order x (W), y (H), (z (D)).
    int64_t points = 1;
    for (int64_t d = 0; d < sp; ++d) points *= size_[2 + d];
    float* y = y_;
    std::vector<double> base(static_cast<size_t>(sp) + 1, 1.0);
    for (int64_t n = 0; n < size_[0]; ++n) {
      const float* t = theta_ + n * sp * (sp + 1);
      for (int64_t p = 0; p < points; ++p) {
        for (int64_t d = sp - 1, r = p; d >= 0; --d) {  // d = 0 is the outermost spatial dim
          const int64_t len = size_[2 + d], i = r % len;
          r /= len;
          // coordinate index: the innermost dim (W) is x = 0
          base[static_cast<size_t>(sp - 1 - d)] =
              align_ ? (len == 1 ? 0.0 : -1.0 + 2.0 * static_cast<double>(i) / (len - 1))
                     : (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(len) - 1.0;
        }
        for (int64_t c = 0; c < sp; ++c) {
          double v = 0;
          for (int64_t j = 0; j <= sp; ++j) v += t[c * (sp + 1) + j] * base[static_cast<size_t>(j)];
          *y++ = static_cast<float>(v);
        }
      }
    }
  }
  std::string implName() const override { return "affine-grid"; }

 private:
  std::vector<int64_t> size_;
  bool align_;
  const float* theta_;
  float* y_;
};

Result<std::unique_ptr<Kernel>> createAffineGridKernel(const KernelInit& k) {
  if (k.inputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}': AffineGrid of {} is not supported",
                         k.node.name, ir::dtypeName(k.inputs[0].dtype()));
  return std::unique_ptr<Kernel>(std::make_unique<AffineGridKernel>(k));
}

}  // namespace

const OpDef& defAffineGrid() {
  static const OpDef d = OpDef("AffineGrid")
                             .kernel(createAffineGridKernel)
                             .onnx(20)
                             .cann("AffineGrid")
                             .inputs(1, 2)
                             .canonicalize(canonAffineGrid)
                             .inferShape(inferAffineGrid)
                             .flops([](const ir::Node& n) { return 4 * n.outputs[0]->numel(); })
                             .summary(
                                 "GridSample's grid: normalized output coordinates "
                                 "transformed by theta (2-D and 3-D)");
  return d;
}

}  // namespace asc::ops
