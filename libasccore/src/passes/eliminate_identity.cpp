// eliminate_identity.cpp: ops that pass their input through unchanged go away: Identity,
// Dropout at inference (when its mask is unused), a Cast to the type the tensor already has, and
// a Reshape/Flatten/Squeeze/Unsqueeze whose output shape equals its input's. Their users read
// the input instead. A node producing a model output stays, so output names do not change.
//
// A Transpose that moves only dims of size 1 (the dims larger than 1 keep their order) moves no
// byte either: it becomes a Reshape to its output's shape, which the runtime runs as a view of
// its input. PyTorch's sequence-first attention exports two per layer at batch 1 ([128, 1, 256]
// <-> [1, 128, 256]); each was a 128 KiB copy.
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

bool movesOnlyUnitDims(const ir::Graph& g, const ir::Node& n) {
  if (g.dynamic || n.op_type != "Transpose" || n.inputs.size() != 1 || !n.inputs[0] ||
      n.outputs.size() != 1)
    return false;
  const ir::Shape& in = n.inputs[0]->shape;
  const ir::Shape& out = n.outputs[0]->shape;
  if (in.empty() || in.size() != out.size() || n.inputs[0]->dtype != n.outputs[0]->dtype)
    return false;
  for (int64_t d : in)
    if (d <= 0) return false;  // unknown, or empty (a 0 in a Reshape shape copies a dim)
  std::vector<int64_t> perm = n.attrs.getInts("perm", {});
  if (perm.empty())
    for (size_t i = in.size(); i-- > 0;) perm.push_back(static_cast<int64_t>(i));
  if (perm.size() != in.size()) return false;
  int64_t last = -1;
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(in.size())) return false;
    if (in[static_cast<size_t>(p)] == 1) continue;
    if (p < last) return false;
    last = p;
  }
  return true;
}

// The Reshape in its canonical form (shape inference turns the shape input into this
// attribute).
void transposeToReshape(ir::Node& n, PassContext& ctx) {
  const ir::Shape& out = n.outputs[0]->shape;
  n.op_type = "Reshape";
  n.attrs.erase("perm");
  n.attrs.set("shape", std::vector<int64_t>(out.begin(), out.end()));
  ctx.log.push_back(
      fmt::format("eliminate-identity: Transpose '{}' moves only dims of 1 -> Reshape", n.name));
}

}  // namespace

Status eliminateIdentity(ir::Graph& g, PassContext& ctx) {
  const Users users = g.users();
  for (const auto& up : g.nodes())
    if (movesOnlyUnitDims(g, *up) && !keepsAny(ctx, {up.get()})) transposeToReshape(*up, ctx);
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
