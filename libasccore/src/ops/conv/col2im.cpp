// col2im.cpp: Col2Im (ONNX opset 18), the inverse of an im2col: input [N, C * prod(block),
// L] holds, for each of the L sliding positions of a block over the padded image, the block's
// values; Col2Im adds each back at its place in an image of `image_shape` (overlaps sum, what
// falls in the padding is dropped). image_shape and block_shape must be constants; dilations,
// pads (begins then ends) and strides default to 1, 0 and 1.
#include "ops/op_util.h"
#include "cpu/parallel.h"

namespace asc::ops {
namespace {

struct Col2ImGeom {
  std::vector<int64_t> image, block, dil, pads, strides, blocks;  // blocks: positions per dim
  int64_t channels = 0, block_size = 1, positions = 1;
};

Col2ImGeom geometry(const ir::Attrs& a, const ir::Shape& x) {
  Col2ImGeom g;
  g.image = a.getInts("image_shape");
  g.block = a.getInts("block_shape");
  const size_t n = g.image.size();
  g.dil = a.getInts("dilations", std::vector<int64_t>(n, 1));
  g.pads = a.getInts("pads", std::vector<int64_t>(2 * n, 0));
  g.strides = a.getInts("strides", std::vector<int64_t>(n, 1));
  for (size_t i = 0; i < n; ++i) {
    g.block_size *= g.block[i];
    const int64_t extent = g.dil[i] * (g.block[i] - 1) + 1;
    g.blocks.push_back((g.image[i] + g.pads[i] + g.pads[n + i] - extent) / g.strides[i] + 1);
    g.positions *= g.blocks.back();
  }
  g.channels = g.block_size > 0 ? x[1] / g.block_size : 0;
  return g;
}

Status canonCol2Im(InferContext& ctx) {
  if (ctx.numInputs() < 3) return Status::ok();
  for (size_t i : {1, 2})
    if (!ctx.constInput(i))
      return ctx.fail("{} (input {}) must be known at compile time (a constant)",
                      i == 1 ? "image_shape" : "block_shape", i);
  ASC_RETURN_IF_ERROR(ctx.moveInputToInts(1, "image_shape"));
  ASC_RETURN_IF_ERROR(ctx.moveInputToInts(2, "block_shape"));
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferCol2Im(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const ir::Attrs& a = ctx.attrs();
  if (x.size() != 3)
    return ctx.fail("input must be [N, C * prod(block_shape), L], it is [{}]",
                    ir::shapeToString(x));
  const auto image = a.getInts("image_shape"), block = a.getInts("block_shape");
  const size_t n = image.size();
  if (n == 0 || block.size() != n)
    return ctx.fail("image_shape [{}] and block_shape [{}] must have one size per spatial dim",
                    ir::shapeToString(image), ir::shapeToString(block));
  const auto dil = a.getInts("dilations", std::vector<int64_t>(n, 1));
  const auto pads = a.getInts("pads", std::vector<int64_t>(2 * n, 0));
  const auto strides = a.getInts("strides", std::vector<int64_t>(n, 1));
  if (dil.size() != n || pads.size() != 2 * n || strides.size() != n)
    return ctx.fail("dilations, pads and strides must have {}, {} and {} values", n, 2 * n, n);
  for (size_t i = 0; i < n; ++i)
    if (image[i] <= 0 || block[i] <= 0 || dil[i] <= 0 || strides[i] <= 0 || pads[i] < 0 ||
        pads[n + i] < 0)
      return ctx.fail("sizes, dilations and strides must be positive and pads >= 0");
  const Col2ImGeom g = geometry(a, x);
  if (x[1] % g.block_size)
    return ctx.fail("input dim 1 ({}) is not a multiple of the block size {}", x[1], g.block_size);
  for (size_t i = 0; i < n; ++i)
    if (g.blocks[i] <= 0)
      return ctx.fail("the block does not fit the padded image in spatial dim {}", i);
  if (x[2] != g.positions)
    return ctx.fail("input has {} block positions (dim 2), the image and block give {}", x[2],
                    g.positions);
  ir::Shape out{x[0], g.channels};
  out.insert(out.end(), image.begin(), image.end());
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

class Col2ImKernel : public Kernel {
 public:
  explicit Col2ImKernel(const KernelInit& k)
      : g_(geometry(k.node.attrs, k.inputs[0].shape())),
        batch_(k.inputs[0].shape()[0]),
        x_(k.inputs[0].f32()),
        y_(static_cast<float*>(k.outputs[0].data)) {
    for (int64_t v : g_.image) image_size_ *= v;
  }
  void run() override {
    const size_t n = g_.image.size();
    // One (batch, channel) image per task: no two tasks write the same element.
    cpu::parallelFor(batch_ * g_.channels, 1, [&](int64_t from, int64_t to) {
      std::vector<int64_t> k(n), l(n);
      for (int64_t bc = from; bc < to; ++bc) {
        float* y = y_ + bc * image_size_;
        std::fill(y, y + image_size_, 0.f);
        const float* x = x_ + bc * g_.block_size * g_.positions;
        for (int64_t kb = 0; kb < g_.block_size; ++kb) {
          for (size_t d = n, r = static_cast<size_t>(kb); d-- > 0;) {
            k[d] = static_cast<int64_t>(r) % g_.block[d];
            r /= static_cast<size_t>(g_.block[d]);
          }
          for (int64_t lp = 0; lp < g_.positions; ++lp) {
            int64_t at = 0, rest = lp;
            bool inside = true;
            for (size_t d = n; d-- > 0;) {
              l[d] = rest % g_.blocks[d];
              rest /= g_.blocks[d];
            }
            for (size_t d = 0; d < n && inside; ++d) {
              const int64_t pos = l[d] * g_.strides[d] - g_.pads[d] + k[d] * g_.dil[d];
              inside = pos >= 0 && pos < g_.image[d];
              at = at * g_.image[d] + pos;
            }
            if (inside) y[at] += x[kb * g_.positions + lp];
          }
        }
      }
    });
  }
  std::string implName() const override { return "col2im"; }

 private:
  Col2ImGeom g_;
  int64_t batch_, image_size_ = 1;
  const float* x_;
  float* y_;
};

Result<std::unique_ptr<Kernel>> createCol2ImKernel(const KernelInit& k) {
  if (k.inputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}': Col2Im of {} is not supported",
                         k.node.name, ir::dtypeName(k.inputs[0].dtype()));
  return std::unique_ptr<Kernel>(std::make_unique<Col2ImKernel>(k));
}

}  // namespace

const OpDef& defCol2Im() {
  static const OpDef d = OpDef("Col2Im")
                             .kernel(createCol2ImKernel)
                             .onnx(18)
                             .cann("Col2im")
                             .inputs(1, 3)
                             .canonicalize(canonCol2Im)
                             .inferShape(inferCol2Im)
                             .flops([](const ir::Node& n) { return n.inputs[0]->numel(); })
                             .summary(
                                 "adds the blocks of [N, C*prod(block), L] back into images "
                                 "of image_shape (im2col's inverse; overlaps sum)");
  return d;
}

}  // namespace asc::ops
