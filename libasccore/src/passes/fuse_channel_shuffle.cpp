// fuse_channel_shuffle.cpp: ShuffleNet's channel shuffle as exporters write it, Reshape
// [N, C, ...] -> [N, g, C/g, ...], Transpose swapping dims 1 and 2, Reshape back to [N, C, ...],
// becomes one ShuffleChannel node (CANN's op of that name). Where the three ops need a plain
// 5-D tensor, so reorders out of and back into the convolutions' layout around them, the one op
// permutes the channels in that layout directly.
#include <fmt/format.h>

#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Node* split;  // Reshape to [N, g, C/g, ...]
  ir::Node* swap;   // Transpose of dims 1 and 2
  ir::Node* join;   // Reshape back to [N, C, ...]
  std::vector<const ir::Node*> involved() const { return {split, swap, join}; }
};

bool match(const ir::Graph& g, const Users& users, ir::Node& split, Match* m) {
  if (split.op_type != "Reshape" || split.inputs.empty() || !split.inputs[0]) return false;
  const ir::Value* x = split.inputs[0];
  const ir::Value* y = split.outputs[0];
  const size_t r = x->shape.size();
  if (r < 3 || y->shape.size() != r + 1 || x->isConstant()) return false;
  const int64_t groups = y->shape[1], per = y->shape[2];
  if (groups < 2 || per < 1 || y->shape[0] != x->shape[0] || groups * per != x->shape[1])
    return false;
  for (size_t d = 2; d < r; ++d)
    if (y->shape[d + 1] != x->shape[d]) return false;
  ir::Node* swap = soleUser(g, users, y);
  if (!swap || swap->op_type != "Transpose") return false;
  std::vector<int64_t> perm = {0, 2, 1};
  for (size_t d = 3; d <= r; ++d) perm.push_back(static_cast<int64_t>(d));
  if (swap->attrs.getInts("perm") != perm) return false;
  ir::Node* join = soleUser(g, users, swap->outputs[0]);
  if (!join || join->op_type != "Reshape" || join->outputs[0]->shape != x->shape) return false;
  *m = {&split, swap, join};
  return true;
}

void rewrite(ir::Graph& g, const Match& m, PassContext& ctx) {
  const int64_t groups = m.split->outputs[0]->shape[1];
  ir::Node* sc =
      g.addNode("ShuffleChannel", m.join->name + "_shuffle", {m.split->inputs[0]}, {nullptr});
  sc->attrs.set("group", groups);
  for (const ir::Node* n : {m.split, m.swap, m.join}) inheritNames(sc, n);
  ctx.log.push_back(fmt::format(
      "fuse-channel-shuffle: Reshape '{}' + Transpose '{}' + Reshape '{}' -> ShuffleChannel "
      "'{}' (group {})",
      m.split->name, m.swap->name, m.join->name, sc->name, groups));
  takeOutput(sc, m.join);
  m.swap->outputs.clear();
  m.split->outputs.clear();
}

}  // namespace

Status fuseChannelShuffle(ir::Graph& g, PassContext& ctx) {
  return forEachMatch<Match>(g, ctx, match,
                             [](ir::Graph& gr, Match& m, PassContext& c) { rewrite(gr, m, c); });
}

}  // namespace asc::passes
