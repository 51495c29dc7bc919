// eliminate_common.cpp: common-subexpression elimination. Two nodes of the same type with the
// same inputs and the same attributes compute the same values: the later one's users read the
// earlier one's outputs, and it goes away (its source names are kept on the survivor).
#include <fmt/format.h>

#include <map>

#include "pass_util.h"

namespace asc::passes {

Status eliminateCommon(ir::Graph& g, PassContext& ctx) {
  std::map<std::pair<std::string, std::vector<const ir::Value*>>, std::vector<ir::Node*>> seen;
  for (const auto& up : g.nodes()) {
    ir::Node& n = *up;
    if (n.outputs.empty() || ctx.keeps(n)) continue;
    auto key =
        std::make_pair(n.op_type, std::vector<const ir::Value*>(n.inputs.begin(), n.inputs.end()));
    auto& bucket = seen[key];
    ir::Node* same = nullptr;
    for (ir::Node* earlier : bucket)
      if (earlier->attrs == n.attrs && earlier->outputs.size() == n.outputs.size()) same = earlier;
    bool replaceable = same != nullptr;
    for (auto* out : n.outputs) replaceable = replaceable && !g.isGraphOutput(out);
    if (!replaceable) {
      bucket.push_back(&n);
      continue;
    }
    ctx.log.push_back(fmt::format("eliminate-common: {} '{}' computes what '{}' does", n.op_type,
                                  n.name, same->name));
    for (size_t i = 0; i < n.outputs.size(); ++i) replaceAllUses(g, n.outputs[i], same->outputs[i]);
    inheritNames(same, &n);
    n.outputs.clear();
  }
  return Status::ok();
}

}  // namespace asc::passes
