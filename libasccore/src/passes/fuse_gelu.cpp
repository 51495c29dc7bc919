// fuse_gelu.cpp: the exact (erf) GELU as exporters write it,
//   y = x * 0.5 * (1 + erf(x / sqrt(2)))
// in either association: Mul(Mul(x, Add(Erf(Div(x, 1.4142)), 1)), 0.5) or
// Mul(Mul(x, 0.5), Add(Erf(Div(x, 1.4142)), 1)) (the Div may be a Mul by 0.7071), becomes one
// Gelu node (oneDNN's gelu_erf).
#include <fmt/format.h>

#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Value* x;
  std::vector<ir::Node*> nodes;  // pattern nodes, the last one produces y
  std::vector<const ir::Node*> involved() const { return {nodes.begin(), nodes.end()}; }
};

// x from the scaling node before Erf: Div(x, sqrt2) or Mul(x, 1/sqrt2).
ir::Value* erfArgument(const ir::Node* scale) {
  if (!scale || scale->inputs.size() != 2) return nullptr;
  if (scale->op_type == "Div" && isScalarConst(scale->inputs[1], 1.41421356, 1e-3))
    return scale->inputs[0];
  if (scale->op_type == "Mul") {
    for (int k = 0; k < 2; ++k)
      if (isScalarConst(scale->inputs[k], 0.70710678, 1e-3)) return scale->inputs[1 - k];
  }
  return nullptr;
}

bool match(const ir::Graph& g, const Users& users, ir::Node& erf, Match* m) {
  if (erf.op_type != "Erf") return false;
  ir::Node* scale = erf.inputs[0]->producer;
  ir::Value* x = erfArgument(scale);
  if (!x || soleUser(g, users, scale->outputs[0]) != &erf) return false;
  ir::Node* add = soleUser(g, users, erf.outputs[0]);
  if (!add || add->op_type != "Add" || !isScalarConst(otherInput(add, erf.outputs[0]), 1.0))
    return false;
  ir::Node* m1 = soleUser(g, users, add->outputs[0]);
  if (!m1 || m1->op_type != "Mul") return false;
  ir::Value* other = otherInput(m1, add->outputs[0]);
  if (other == x) {  // Mul(x, 1 + erf) then Mul(., 0.5)
    ir::Node* m2 = soleUser(g, users, m1->outputs[0]);
    if (!m2 || m2->op_type != "Mul" || !isScalarConst(otherInput(m2, m1->outputs[0]), 0.5))
      return false;
    *m = {x, {scale, &erf, add, m1, m2}};
    return true;
  }
  ir::Node* half = other ? other->producer : nullptr;  // Mul(Mul(x, 0.5), 1 + erf)
  if (!half || half->op_type != "Mul" || soleUser(g, users, other) != m1) return false;
  if (otherInput(half, x) == nullptr || !isScalarConst(otherInput(half, x), 0.5)) return false;
  *m = {x, {scale, &erf, add, half, m1}};
  return true;
}

void rewrite(ir::Graph& g, const Match& m, PassContext& ctx) {
  ir::Node* last = m.nodes.back();
  ir::Node* gelu = g.addNode("Gelu", last->name + "_gelu", {m.x}, {nullptr});
  gelu->outputs.clear();
  gelu->outputs.push_back(nullptr);
  for (ir::Node* n : m.nodes) inheritNames(gelu, n);
  ctx.log.push_back(fmt::format("fuse-gelu: {} nodes from '{}' -> Gelu '{}'", m.nodes.size(),
                                m.nodes.front()->name, gelu->name));
  takeOutput(gelu, last);
  for (ir::Node* n : m.nodes) n->outputs.clear();
}

}  // namespace

Status fuseGelu(ir::Graph& g, PassContext& ctx) {
  return forEachMatch<Match>(g, ctx, match,
                             [](ir::Graph& gr, Match& m, PassContext& c) { rewrite(gr, m, c); });
}

}  // namespace asc::passes
