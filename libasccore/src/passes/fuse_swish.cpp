// fuse_swish.cpp: SiLU as exporters write it, Mul(x, Sigmoid(x)), becomes one Swish node
// (oneDNN's eltwise_swish with alpha 1), which fuse-conv-activation can then fold into the
// convolution before it (EfficientNet's blocks).
#include <fmt/format.h>

#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Node* sigmoid;
  ir::Node* mul;
  std::vector<const ir::Node*> involved() const { return {sigmoid, mul}; }
};

bool match(const ir::Graph& g, const Users& users, ir::Node& sig, Match* m) {
  if (sig.op_type != "Sigmoid") return false;
  ir::Node* mul = soleUser(g, users, sig.outputs[0]);
  if (!mul || mul->op_type != "Mul" || otherInput(mul, sig.outputs[0]) != sig.inputs[0])
    return false;
  *m = {&sig, mul};
  return true;
}

void rewrite(ir::Graph& g, const Match& m, PassContext& ctx) {
  ir::Node* sw = g.addNode("Swish", m.mul->name + "_swish", {m.sigmoid->inputs[0]}, {nullptr});
  inheritNames(sw, m.sigmoid);
  inheritNames(sw, m.mul);
  ctx.log.push_back(fmt::format("fuse-swish: Sigmoid '{}' + Mul '{}' -> Swish '{}'",
                                m.sigmoid->name, m.mul->name, sw->name));
  takeOutput(sw, m.mul);
  m.sigmoid->outputs.clear();
}

}  // namespace

Status fuseSwish(ir::Graph& g, PassContext& ctx) {
  return forEachMatch<Match>(g, ctx, match,
                             [](ir::Graph& gr, Match& m, PassContext& c) { rewrite(gr, m, c); });
}

}  // namespace asc::passes
