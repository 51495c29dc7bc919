// fuse_pad.cpp: a Pad that pads nothing (PyTorch exports one before AvgPool2d) is removed; a
// zero Pad of the spatial dims whose only user is a Conv, or an AveragePool that counts padding
// (count_include_pad=1, or no padding of its own to count), moves into that op's own pads. The same
// numbers without the copy, and the tensor keeps its blocked layout (DenseNet's transitions).
#include <fmt/format.h>

#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Node* pad;
  ir::Node* user;
  std::vector<const ir::Node*> involved() const { return {pad, user}; }
};

bool match(const ir::Graph& g, const Users& users, ir::Node& pad, Match* m) {
  if (pad.op_type != "Pad" || pad.inputs.size() != 1) return false;
  if (pad.attrs.getString("mode", "constant") != "constant" ||
      pad.attrs.getFloat("value", 0.f) != 0.f)
    return false;
  const auto p = pad.attrs.getInts("pads");
  const size_t r = pad.inputs[0]->shape.size();
  if (r < 3 || p.size() != 2 * r || p[0] || p[1] || p[r] || p[r + 1]) return false;
  for (auto v : p)
    if (v < 0) return false;
  ir::Node* u = soleUser(g, users, pad.outputs[0]);
  if (!u || u->inputs[0] != pad.outputs[0]) return false;
  const bool conv = u->op_type == "Conv";
  const bool avg = u->op_type == "AveragePool";
  if (!conv && !avg) return false;
  if (avg) {  // pooling pads must stay smaller than the window
    const auto k = u->attrs.getInts("kernel_shape");
    const auto own = u->attrs.getInts("pads", std::vector<int64_t>(2 * (r - 2), 0));
    if (k.size() != r - 2 || own.size() != 2 * (r - 2)) return false;
    // The Pad's zeros are elements the pool counts. A pool that does not count padding still
    // qualifies when it has none of its own and no partial windows (ceil_mode 0): torchvision's
    // avg_pool2d(padding=1) exports as such a Pad and AveragePool (Inception-v3: 9 of them).
    bool own_pads = false;
    for (auto v : own) own_pads = own_pads || v != 0;
    if (u->attrs.getInt("count_include_pad", 0) != 1 &&
        (own_pads || u->attrs.getInt("ceil_mode", 0) != 0 ||
         u->attrs.getString("auto_pad", "NOTSET") != "NOTSET"))
      return false;
    for (size_t i = 0; i < r - 2; ++i)
      if (own[i] + p[2 + i] >= k[i] || own[r - 2 + i] + p[r + 2 + i] >= k[i]) return false;
  }
  *m = {&pad, u};
  return true;
}

void rewrite(const Match& m, PassContext& ctx) {
  const auto p = m.pad->attrs.getInts("pads");
  const size_t r = m.pad->inputs[0]->shape.size(), spatial = r - 2;
  auto pads = m.user->attrs.getInts("pads", std::vector<int64_t>(2 * spatial, 0));
  for (size_t i = 0; i < spatial; ++i) {
    pads[i] += p[2 + i];
    pads[spatial + i] += p[r + 2 + i];
  }
  m.user->attrs.set("pads", pads);
  // The Pad's zeros are counted as count_include_pad=1 counts padding.
  if (m.user->op_type == "AveragePool") m.user->attrs.set("count_include_pad", int64_t(1));
  m.user->inputs[0] = m.pad->inputs[0];
  ctx.log.push_back(
      fmt::format("fuse-pad: Pad '{}' into {} '{}'", m.pad->name, m.user->op_type, m.user->name));
  inheritNames(m.user, m.pad);
  m.pad->outputs.clear();
}

bool isNoOpPad(const ir::Graph& g, const ir::Node& n) {
  if (n.op_type != "Pad" || n.inputs.size() != 1 || g.isGraphOutput(n.outputs[0])) return false;
  for (auto v : n.attrs.getInts("pads"))
    if (v != 0) return false;
  return true;
}

}  // namespace

Status fusePad(ir::Graph& g, PassContext& ctx) {
  Users users = g.users();
  for (const auto& up : g.nodes()) {
    if (up->outputs.empty()) continue;
    if (ctx.keeps(*up)) continue;
    if (isNoOpPad(g, *up)) {
      ctx.log.push_back(fmt::format("fuse-pad: removed Pad '{}' (pads nothing)", up->name));
      replaceAllUses(g, up->outputs[0], up->inputs[0]);
      up->outputs.clear();
      continue;
    }
    Match m;
    if (match(g, users, *up, &m) && !keepsAny(ctx, m.involved())) rewrite(m, ctx);
  }
  return Status::ok();
}

}  // namespace asc::passes
