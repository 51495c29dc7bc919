// eliminate_identity.cpp: ops that pass their input through unchanged go away: Identity,
// Dropout at inference (when its mask is unused), a Cast to the type the tensor already has, and
// a Reshape/Flatten/Squeeze/Unsqueeze whose output shape equals its input's. Their users read
// the input instead. A node producing a model output stays, so output names do not change.
#include <fmt/format.h>

#include "pass_util.h"

namespace asc::passes {
namespace {

bool isNoOp(const ir::Graph& g, const Users& users, const ir::Node& n) {
  if (n.inputs.empty() || !n.inputs[0] || n.outputs.empty()) return false;
  const ir::Value* in = n.inputs[0];
  const ir::Value* out = n.outputs[0];
  if (g.isGraphOutput(out)) return false;
  if (n.op_type == "Identity") return true;
  if (n.op_type == "Dropout") {
    if (n.outputs.size() > 1) {
      auto it = users.find(n.outputs[1]);
      if ((it != users.end() && !it->second.empty()) || g.isGraphOutput(n.outputs[1])) return false;
    }
    return true;
  }
  if (n.op_type == "Cast") return in->dtype == out->dtype;
  if (n.op_type == "Reshape" || n.op_type == "Flatten" || n.op_type == "Squeeze" ||
      n.op_type == "Unsqueeze")
    return in->shape == out->shape && in->dtype == out->dtype;
  return false;
}

}  // namespace

Status eliminateIdentity(ir::Graph& g, PassContext& ctx) {
  const Users users = g.users();
  for (const auto& up : g.nodes()) {
    ir::Node& n = *up;
    if (n.outputs.empty() || !isNoOp(g, users, n) || keepsAny(ctx, {&n})) continue;
    ctx.log.push_back(fmt::format("eliminate-identity: removed {} '{}'", n.op_type, n.name));
    replaceAllUses(g, n.outputs[0], n.inputs[0]);
    n.outputs.clear();
  }
  return Status::ok();
}

}  // namespace asc::passes
