// rotary.cpp: RotaryEmbedding (ONNX opset 23) -> CANN RotaryPositionEmbedding. X is
// [B, H, S, D] or [B, S, H*D] (num_heads given); the first rotary_embedding_dim (default D) of
// each head's D values are rotated in pairs, either the two halves (x_i, x_{i+r/2}) or, with
// interleaved, neighbours (x_{2i}, x_{2i+1}):
//   (a, b) -> (a cos - b sin, a sin + b cos)
// with cos/sin from cos_cache / sin_cache: [B, S, r/2] without position_ids, else rows
// [max_position, r/2] chosen by position_ids [B, S]. The rest of each head passes unchanged.
#include <atomic>
#include <cmath>

#include "ops/op_util.h"
#include "cpu/parallel.h"

namespace asc::ops {
namespace {

struct RotaryDims {
  bool three_d = false;
  int64_t b = 1, h = 1, s = 1, d = 1, r = 1;
};

RotaryDims rotaryDims(const ir::Node& n, const ir::Shape& x) {
  RotaryDims g;
  g.three_d = x.size() == 3;
  g.b = x[0];
  if (g.three_d) {
    g.h = n.attrs.getInt("num_heads", 1);
    g.s = x[1];
    g.d = x[2] / std::max<int64_t>(g.h, 1);
  } else {
    g.h = x[1], g.s = x[2], g.d = x[3];
  }
  const int64_t r = n.attrs.getInt("rotary_embedding_dim", 0);
  g.r = r > 0 ? r : g.d;
  return g;
}

Status inferRotary(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  if (x.size() != 3 && x.size() != 4)
    return ctx.fail("input has rank {}; RotaryEmbedding takes rank 3 or 4", x.size());
  if (!ir::isFloat(ctx.dtype(0)) || ctx.dtype(1) != ctx.dtype(0) || ctx.dtype(2) != ctx.dtype(0))
    return ctx.fail("input, cos_cache and sin_cache must have one float dtype");
  if (x.size() == 3) {
    const int64_t h = ctx.attrs().getInt("num_heads", 0);
    if (h <= 0 || x[2] % h)
      return ctx.fail("3-D input [{}] needs num_heads dividing its last dim", ir::shapeToString(x));
  }
  const RotaryDims g = rotaryDims(ctx.node(), x);
  if (g.r > g.d || g.r % 2)
    return ctx.fail("rotary_embedding_dim {} must be even and at most the head size {}", g.r, g.d);
  const bool ids = ctx.numInputs() > 3 && ctx.hasInput(3);
  const ir::Shape want_cache = ids ? ir::Shape{-1, g.r / 2} : ir::Shape{g.b, g.s, g.r / 2};
  for (size_t i = 1; i <= 2; ++i) {
    const ir::Shape& c = ctx.shape(i);
    const bool ok = ids ? c.size() == 2 && c[1] == g.r / 2 : c == want_cache;
    if (!ok)
      return ctx.fail("{} has shape [{}]; expected {}", i == 1 ? "cos_cache" : "sin_cache",
                      ir::shapeToString(c),
                      ids ? fmt::format("[max_position, {}]", g.r / 2)
                          : fmt::format("[{}]", ir::shapeToString(want_cache)));
  }
  if (ids && (ctx.shape(3) != ir::Shape{g.b, g.s} || ctx.dtype(3) != ir::DType::I64))
    return ctx.fail("position_ids must be int64 [{}, {}], it is {} [{}]", g.b, g.s,
                    ir::dtypeName(ctx.dtype(3)), ir::shapeToString(ctx.shape(3)));
  return inferSameAsInput0(ctx);
}

class RotaryKernel : public Kernel {
 public:
  explicit RotaryKernel(const KernelInit& k)
      : g_(rotaryDims(k.node, k.inputs[0].shape())),
        interleaved_(k.node.attrs.getInt("interleaved", 0) != 0),
        x_(k.inputs[0].f32()),
        cos_(k.inputs[1].f32()),
        sin_(k.inputs[2].f32()),
        ids_(k.inputs.size() > 3 && k.inputs[3].data ? static_cast<const int64_t*>(k.inputs[3].data)
                                                     : nullptr),
        max_pos_(ids_ ? k.inputs[1].shape()[0] : 0),
        y_(static_cast<float*>(k.outputs[0].data)) {}

  void run() override {
    const int64_t rows = g_.b * g_.h * g_.s, half = g_.r / 2;
    std::atomic<bool> bad_id{false};
    cpu::parallelFor(rows, 16, [&](int64_t from, int64_t to) {
      for (int64_t row = from; row < to; ++row) {
        // row = ((b * H + h) * S + s) in 4-D order
        const int64_t s = row % g_.s, h = (row / g_.s) % g_.h, b = row / (g_.s * g_.h);
        const int64_t at = g_.three_d ? (b * g_.s + s) * g_.h * g_.d + h * g_.d : row * g_.d;
        int64_t cache_row = b * g_.s + s;
        if (ids_) {
          cache_row = ids_[b * g_.s + s];
          if (cache_row < 0 || cache_row >= max_pos_) {
            bad_id = true;
            continue;
          }
        }
        const float* c = cos_ + cache_row * half;
        const float* sn = sin_ + cache_row * half;
        const float* x = x_ + at;
        float* y = y_ + at;
        for (int64_t i = 0; i < half; ++i) {
          const int64_t i1 = interleaved_ ? 2 * i : i, i2 = interleaved_ ? 2 * i + 1 : i + half;
          const float a = x[i1], bb = x[i2];
          y[i1] = a * c[i] - bb * sn[i];
          y[i2] = a * sn[i] + bb * c[i];
        }
        for (int64_t i = g_.r; i < g_.d; ++i) y[i] = x[i];
      }
    });
    if (bad_id)
      throw KernelRunError(Status::error(ErrorCode::InvalidParam,
                                         "RotaryEmbedding: a position id lies outside the {} rows "
                                         "of cos_cache/sin_cache",
                                         max_pos_));
  }
  std::string implName() const override { return "rotary"; }

 private:
  RotaryDims g_;
  bool interleaved_;
  const float *x_, *cos_, *sin_;
  const int64_t* ids_;
  int64_t max_pos_;
  float* y_;
};

Result<std::unique_ptr<Kernel>> createRotaryKernel(const KernelInit& k) {
  for (size_t i = 0; i < 3; ++i)
    if (k.inputs[i].dtype() != ir::DType::F32 || k.inputs[i].layout != Layout::Plain)
      return Status::error(ErrorCode::NotImplemented,
                           "node '{}' (RotaryEmbedding): {} inputs are not supported; float32 is",
                           k.node.name, ir::dtypeName(k.inputs[i].dtype()));
  return std::unique_ptr<Kernel>(std::make_unique<RotaryKernel>(k));
}

}  // namespace

const OpDef& defRotaryEmbedding() {
  static const OpDef d =
      OpDef("RotaryEmbedding")
          .kernel(createRotaryKernel)
          .onnx(23)
          .cann("RotaryPositionEmbedding")
          .inputs(3, 4)
          .inferShape(inferRotary)
          .flops([](const ir::Node& n) { return 6 * n.outputs[0]->numel(); })
          .summary(
              "rotates each head's first rotary_embedding_dim values in pairs by the "
              "cos/sin caches (by position_ids when given)");
  return d;
}

}  // namespace asc::ops
