// matmul.cpp: MatMul with numpy semantics (a 1-D first operand is a row vector, a 1-D second
// operand a column vector, and the added dim is dropped from the result; batch dims broadcast)
// -> CANN MatMulV2, and Gemm: alpha * A' * B' + beta * C with A' = transA ? A^T : A (2-D only),
// C broadcast one way to [M, N] (optional since opset 11) -> CANN GEMM. FLOPs = 2*M*N*K*batch.
#include "ops/op_util.h"
#include "matmul_kernel.h"

namespace asc::ops {
namespace {

struct MatMulDims {
  int64_t m = 0, n = 0, k = 0, batch = 1;
  ir::Shape out;
};

// Works on shapes only, so inference and the FLOP count share it; `why` explains a failure.
std::optional<MatMulDims> matmulDims(const ir::Shape& a0, const ir::Shape& b0, std::string* why) {
  if (a0.empty() || b0.empty()) {
    *why = "MatMul operands must have rank >= 1 (scalars are not allowed)";
    return std::nullopt;
  }
  ir::Shape a = a0, b = b0;
  if (a.size() == 1) a.insert(a.begin(), 1);
  if (b.size() == 1) b.push_back(1);
  const int64_t ka = a.back(), kb = b[b.size() - 2];
  if (ka != kb) {
    *why = fmt::format("inner dims differ: [{}] x [{}] (K = {} vs {})", ir::shapeToString(a0),
                       ir::shapeToString(b0), ka, kb);
    return std::nullopt;
  }
  auto batch =
      broadcastShapes(ir::Shape(a.begin(), a.end() - 2), ir::Shape(b.begin(), b.end() - 2));
  if (!batch) {
    *why = fmt::format("batch dims of [{}] and [{}] do not broadcast", ir::shapeToString(a0),
                       ir::shapeToString(b0));
    return std::nullopt;
  }
  MatMulDims d;
  d.m = a[a.size() - 2];
  d.n = b.back();
  d.k = ka;
  d.batch = ir::numElements(*batch);
  d.out = *batch;
  if (a0.size() > 1) d.out.push_back(d.m);
  if (b0.size() > 1) d.out.push_back(d.n);
  return d;
}

// B as the product sees it: with transpose_x2 (set by fuse-matmul-transpose-scale, CANN
// MatMulV2's attribute name) the stored B is [..., N, K].
ir::Shape effectiveB(const ir::Shape& b, const ir::Attrs& attrs) {
  ir::Shape out = b;
  if (attrs.getInt("transpose_x2", 0) != 0 && out.size() >= 2)
    std::swap(out[out.size() - 1], out[out.size() - 2]);
  return out;
}

Status inferMatMul(InferContext& ctx) {
  if (ctx.dtype(0) != ctx.dtype(1))
    return ctx.fail("operand dtypes differ: {} and {}", ir::dtypeName(ctx.dtype(0)),
                    ir::dtypeName(ctx.dtype(1)));
  if (ctx.dtype(0) == ir::DType::Bool) return ctx.fail("MatMul does not take bool operands");
  std::string why;
  if (ctx.attrs().getInt("transpose_x2", 0) != 0 && ctx.rank(1) < 2)
    return ctx.fail("transpose_x2 needs a B of rank >= 2, not [{}]",
                    ir::shapeToString(ctx.shape(1)));
  auto d = matmulDims(ctx.shape(0), effectiveB(ctx.shape(1), ctx.attrs()), &why);
  if (!d) return ctx.fail("{}", why);
  // A bias fused by the fuse-matmul-add pass: one value per output column.
  if (ctx.numInputs() > 2 && ctx.hasInput(2) &&
      (ctx.rank(2) != 1 || d->out.empty() || ctx.shape(2)[0] != d->out.back()))
    return ctx.fail("fused bias has shape [{}], expected [{}]", ir::shapeToString(ctx.shape(2)),
                    d->out.empty() ? 0 : d->out.back());
  ctx.setOutput(0, ctx.dtype(0), d->out);
  return Status::ok();
}

int64_t matmulFlops(const ir::Node& n) {
  std::string why;
  auto d = matmulDims(n.inputs[0]->shape, effectiveB(n.inputs[1]->shape, n.attrs), &why);
  return d ? 2 * d->m * d->n * d->k * d->batch : 0;
}

Status inferGemm(InferContext& ctx) {
  const ir::Shape& a = ctx.shape(0);
  const ir::Shape& b = ctx.shape(1);
  if (a.size() != 2 || b.size() != 2)
    return ctx.fail("A [{}] and B [{}] must both be 2-D", ir::shapeToString(a),
                    ir::shapeToString(b));
  if (ctx.dtype(0) != ctx.dtype(1))
    return ctx.fail("A and B dtypes differ: {} and {}", ir::dtypeName(ctx.dtype(0)),
                    ir::dtypeName(ctx.dtype(1)));
  ir::Attrs& at = ctx.attrs();
  const int64_t ta = at.getInt("transA", 0), tb = at.getInt("transB", 0);
  if ((ta != 0 && ta != 1) || (tb != 0 && tb != 1))
    return ctx.fail("transA {} and transB {} must be 0 or 1", ta, tb);
  const int64_t m = ta ? a[1] : a[0], ka = ta ? a[0] : a[1];
  const int64_t kb = tb ? b[1] : b[0], n = tb ? b[0] : b[1];
  if (ka != kb)
    return ctx.fail("inner dims differ: A [{}] (transA={}) x B [{}] (transB={})",
                    ir::shapeToString(a), ta, ir::shapeToString(b), tb);
  const ir::Shape out = {m, n};
  if (ctx.hasInput(2)) {
    auto bc = broadcastShapes(out, ctx.shape(2));
    if (!bc || *bc != out)
      return ctx.fail("C of shape [{}] does not broadcast to [{}]", ir::shapeToString(ctx.shape(2)),
                      ir::shapeToString(out));
    if (ctx.dtype(2) != ctx.dtype(0))
      return ctx.fail("C has dtype {}, A has {}", ir::dtypeName(ctx.dtype(2)),
                      ir::dtypeName(ctx.dtype(0)));
  } else if (ctx.opset() < 11) {
    return ctx.fail("input C is required before opset 11");
  }
  at.set("transA", ta);
  at.set("transB", tb);
  at.set("alpha", at.getFloat("alpha", 1.0f));
  at.set("beta", at.getFloat("beta", 1.0f));
  at.erase("broadcast");  // opset < 7; C broadcasts one way in every opset we accept
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

int64_t gemmFlops(const ir::Node& n) {
  const ir::Shape& a = n.inputs[0]->shape;
  const int64_t k = n.attrs.getInt("transA", 0) ? a[0] : a[1];
  const int64_t mn = n.outputs[0]->numel();
  return 2 * mn * k + (n.input(2) ? 2 * mn : 0);
}

// MatMul is CANN's MatMulV2 on two matrices and BatchMatMulV2 with batch dims; Gemm is GEMM.
CannSpelling matmulSpelling(const ir::Node& n) {
  CannSpelling c;
  const bool batched =
      (n.input(0) && n.input(0)->shape.size() > 2) || (n.input(1) && n.input(1)->shape.size() > 2);
  const bool t2 = n.attrs.getInt("transpose_x2", 0) != 0;
  if (batched) {
    c.type = "BatchMatMulV2";
    c.attrs = {{"adj_x1", false}, {"adj_x2", t2}, {"offset_x", int64_t{0}}};
  } else {
    c.attrs = {{"transpose_x1", false}, {"transpose_x2", t2}, {"offset_x", int64_t{0}}};
  }
  return c;
}

CannSpelling gemmSpelling(const ir::Node& n) {
  CannSpelling c;
  c.attrs = {{"transpose_a", n.attrs.getInt("transA", 0) != 0},
             {"transpose_b", n.attrs.getInt("transB", 0) != 0}};
  return c;
}

}  // namespace

const OpDef& defMatMul() {
  static const OpDef d = OpDef("MatMul")
                             .takesActivations(ActivationPostOps::Any)
                             .cube()
                             .kernel(createMatMulKernel)
                             .onnx(1)
                             .cann("MatMulV2")
                             .cannSpelling(matmulSpelling)
                             .inputs(2, 3)
                             .inferShape(inferMatMul)
                             .flops(matmulFlops)
                             .summary("numpy matmul: 1-D operands, broadcast batch dims");
  return d;
}

const OpDef& defGemm() {
  static const OpDef d = OpDef("Gemm")
                             .takesActivations(ActivationPostOps::Any)
                             .cube()
                             .kernel(createMatMulKernel)
                             .onnx(1)
                             .cann("GEMM")
                             .cannSpelling(gemmSpelling)
                             .inputs(2, 3)
                             .inferShape(inferGemm)
                             .flops(gemmFlops)
                             .summary("alpha * op(A) * op(B) + beta * C; C broadcasts to [M, N]");
  return d;
}

}  // namespace asc::ops
