// fuse_matmul_add.cpp: MatMul(A, W) + b with a constant 2-D W [K, N] and a constant bias of N
// values (the Linear layers PyTorch exports as MatMul + Add) becomes Gemm(A, W, b) when A is 2-D,
// and MatMul(A, W, b) otherwise; either way the matmul primitive adds the bias.
#include <fmt/format.h>

#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Node* mm;
  ir::Node* add;
  ir::Value* bias;
  std::vector<const ir::Node*> involved() const { return {mm, add}; }
};

bool match(const ir::Graph& g, const Users& users, ir::Node& mm, Match* m) {
  if (mm.op_type != "MatMul" || mm.inputs.size() != 2) return false;
  if (mm.attrs.has("alpha") || mm.attrs.has("transpose_x2")) return false;
  const ir::Value* w = mm.inputs[1];
  if (!w->isConstant() || w->shape.size() != 2 || mm.inputs[0]->shape.size() < 2) return false;
  ir::Node* add = soleUser(g, users, mm.outputs[0]);
  if (!add || add->op_type != "Add") return false;
  ir::Value* b = otherInput(add, mm.outputs[0]);
  if (!b || !b->isConstant() || b->numel() != w->shape[1] || b->dtype != w->dtype) return false;
  for (size_t i = 0; i + 1 < b->shape.size(); ++i)
    if (b->shape[i] != 1) return false;
  if (add->outputs[0]->shape != mm.outputs[0]->shape) return false;
  *m = {&mm, add, b};
  return true;
}

void rewrite(ir::Graph& g, const Match& m, PassContext& ctx) {
  ir::Value* bias = m.bias;
  if (bias->shape.size() != 1) {  // [1, N] -> [N], sharing the bytes
    ir::Tensor t = bias->tensor();
    t.shape = {bias->numel()};
    bias = g.addConstant(bias->name + "_1d", t);
  }
  m.mm->inputs.push_back(bias);
  const bool gemm = m.mm->inputs[0]->shape.size() == 2;
  if (gemm) m.mm->op_type = "Gemm";  // alpha = beta = 1, no transposes: the defaults
  ctx.log.push_back(fmt::format("fuse-matmul-add: MatMul '{}' + Add '{}' -> {}", m.mm->name,
                                m.add->name, gemm ? "Gemm" : "MatMul with a bias"));
  inheritNames(m.mm, m.add);
  takeOutput(m.mm, m.add);
}

}  // namespace

Status fuseMatMulAdd(ir::Graph& g, PassContext& ctx) {
  return forEachMatch<Match>(g, ctx, match,
                             [](ir::Graph& gr, Match& m, PassContext& c) { rewrite(gr, m, c); });
}

}  // namespace asc::passes
