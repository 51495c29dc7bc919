// fuse_conv_add.cpp: Add(Conv(x), r) where the Conv's only user is the Add and r has the Add's
// shape becomes Conv(x, w, b, r): oneDNN adds r as a binary post-op (the ResNet residual), so
// the sum costs no extra pass over memory.
#include <fmt/format.h>

#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Node* conv;
  ir::Node* add;
  ir::Value* residual;
  std::vector<const ir::Node*> involved() const { return {conv, add}; }
};

bool match(const ir::Graph& g, const Users& users, ir::Node& add, Match* m) {
  if (add.op_type != "Add" || add.inputs.size() != 2) return false;
  const ir::Value* out = add.outputs[0];
  // Prefer the later Conv: the other operand is then already computed where the Conv runs.
  for (int k = 1; k >= 0; --k) {
    ir::Value* a = add.inputs[k];
    ir::Value* r = add.inputs[1 - k];
    ir::Node* conv = producerOf(a, "Conv");
    if (!conv || conv->attrs.has("activation") || conv->inputs.size() > 3) continue;
    if (soleUser(g, users, a) != &add) continue;
    if (!r || r->isConstant() || r == a || r->shape != out->shape || a->shape != out->shape ||
        r->dtype != out->dtype)
      continue;
    *m = {conv, &add, r};
    return true;
  }
  return false;
}

void rewrite(const Match& m, PassContext& ctx) {
  m.conv->inputs.resize(3, nullptr);
  m.conv->inputs.push_back(m.residual);
  ctx.log.push_back(fmt::format("fuse-conv-add: Conv '{}' + Add '{}'", m.conv->name, m.add->name));
  inheritNames(m.conv, m.add);
  takeOutput(m.conv, m.add);
}

}  // namespace

Status fuseConvAdd(ir::Graph& g, PassContext& ctx) {
  return forEachMatch<Match>(g, ctx, match,
                             [](ir::Graph& gr, Match& m, PassContext& c) { rewrite(m, c); });
}

}  // namespace asc::passes
