// fuse_swish.cpp: SiLU as exporters write it, Mul(x, Sigmoid(x)), becomes one Swish node
// (oneDNN's eltwise_swish with alpha 1), and hard-swish as exporters before opset 14 write it,
// Mul(x, HardSigmoid(x)) with alpha 1/6 and beta 1/2, one HardSwish node (eltwise_hardswish);
// fuse-conv-activation can then fold either into the convolution before it (EfficientNet's and
// MobileNetV3's blocks), one pass over the feature map instead of three.
#include <fmt/format.h>

#include <cmath>

#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Node* sigmoid;  // Sigmoid or HardSigmoid
  ir::Node* mul;
  std::vector<const ir::Node*> involved() const { return {sigmoid, mul}; }
};

// HardSigmoid with hard-swish's constants: max(0, min(1, x / 6 + 1 / 2)).
bool hardSwishGate(const ir::Node& n) {
  return n.op_type == "HardSigmoid" &&
         std::fabs(n.attrs.getFloat("alpha", 0.2f) - 1.f / 6.f) <= 1e-6f &&
         n.attrs.getFloat("beta", 0.5f) == 0.5f;
}

bool match(const ir::Graph& g, const Users& users, ir::Node& sig, Match* m) {
  if (sig.op_type != "Sigmoid" && !hardSwishGate(sig)) return false;
  ir::Node* mul = soleUser(g, users, sig.outputs[0]);
  if (!mul || mul->op_type != "Mul" || otherInput(mul, sig.outputs[0]) != sig.inputs[0])
    return false;
  *m = {&sig, mul};
  return true;
}

void rewrite(ir::Graph& g, const Match& m, PassContext& ctx) {
  const bool hard = m.sigmoid->op_type == "HardSigmoid";
  const char* type = hard ? "HardSwish" : "Swish";
  ir::Node* sw = g.addNode(type, m.mul->name + (hard ? "_hardswish" : "_swish"),
                           {m.sigmoid->inputs[0]}, {nullptr});
  inheritNames(sw, m.sigmoid);
  inheritNames(sw, m.mul);
  ctx.log.push_back(fmt::format("fuse-swish: {} '{}' + Mul '{}' -> {} '{}'", m.sigmoid->op_type,
                                m.sigmoid->name, m.mul->name, type, sw->name));
  takeOutput(sw, m.mul);
  m.sigmoid->outputs.clear();
}

}  // namespace

Status fuseSwish(ir::Graph& g, PassContext& ctx) {
  return forEachMatch<Match>(g, ctx, match,
                             [](ir::Graph& gr, Match& m, PassContext& c) { rewrite(gr, m, c); });
}

}  // namespace asc::passes
