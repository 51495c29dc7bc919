// eliminate_dead.cpp: nodes none of whose outputs reaches a model output are removed (repeated
// until nothing changes, so whole dead branches go).
#include <fmt/format.h>

#include <unordered_set>

#include "pass_util.h"

namespace asc::passes {

Status eliminateDead(ir::Graph& g, PassContext& ctx) {
  // Walk back from the model outputs; everything not reached is dead.
  std::unordered_set<const ir::Node*> live;
  std::vector<const ir::Value*> stack(g.outputs.begin(), g.outputs.end());
  while (!stack.empty()) {
    const ir::Value* v = stack.back();
    stack.pop_back();
    const ir::Node* p = v ? v->producer : nullptr;
    if (!p || !live.insert(p).second) continue;
    for (auto* in : p->inputs)
      if (in) stack.push_back(in);
  }
  for (const auto& up : g.nodes())
    if (!up->outputs.empty() && !live.count(up.get())) {
      ctx.log.push_back(fmt::format("eliminate-dead: removed {} '{}' (no model output uses it)",
                                    up->op_type, up->name));
      up->outputs.clear();
    }
  return Status::ok();
}

}  // namespace asc::passes
