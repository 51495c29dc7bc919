// op_blacklist.cpp: the atc --op_blacklist file, in its two forms, and the impl-mode pass.
//   {"op_types": [...], "op_names": [...]}: nodes no pass may fuse, fold or remove;
//   {"op_name": "Conv2D", "impl_type": "high_precision"} (one object or a list): the seed's
//   per-op implementation choice, the same as --op_select_implmode with
//   --optypelist_for_implmode. On the CPU runtime high_precision keeps the op in fp32 whatever
//   --precision_mode says and runs it on its most accurate kernel (no Winograd convolution);
//   high_performance (the default) lets it take the fastest.
#include <fmt/format.h>

#include "asc/ops/registry.h"
#include "asc/passes/pass.h"
#include "op_blacklist.pb.h"
#include "support/json_config.h"

namespace asc::passes {
namespace {

constexpr const char* kForms =
    R"({"op_types": ["Softmax"], "op_names": ["node_name"]}, or the per-op implementation )"
    R"(choice {"op_name": "Conv2D", "impl_type": "high_precision"} (one object or a list))";

Status addImplChoice(const asc::config::ImplChoice& c, const std::string& path, PassContext* ctx) {
  if (c.op_name().empty())
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --op_blacklist is invalid. Reason: an entry "
                         "has no op_name; name an op type (Conv2D or Conv) or a node",
                         path);
  ASC_RETURN_IF_ERROR(checkImplMode(c.impl_type(), fmt::format("--op_blacklist ({}, op_name "
                                                               "'{}')",
                                                               path, c.op_name())));
  ctx->impl_modes[c.op_name()] = c.impl_type();
  return Status::ok();
}

// Where the text starts: '[' (a list), '{' or something else.
char firstChar(const std::string& text) {
  for (char c : text)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return c;
  return 0;
}

}  // namespace

Status checkImplMode(const std::string& mode, const std::string& where) {
  if (mode == "high_precision" || mode == "high_performance") return Status::ok();
  return Status::error(ErrorCode::InvalidParam,
                       "Value {} for parameter {} is invalid. Reason: use high_precision or "
                       "high_performance",
                       mode.empty() ? "(empty)" : mode, where);
}

Status readOpBlacklist(const std::string& path, PassContext* ctx) {
  ASC_TRY(std::string text, readConfigText(path, "op_blacklist"));
  if (firstChar(text) == '[') {
    asc::config::ImplChoices list;
    ASC_RETURN_IF_ERROR(
        parseJsonConfig("{\"entries\": " + text + "}", path, "op_blacklist", kForms, &list));
    for (const auto& c : list.entries()) ASC_RETURN_IF_ERROR(addImplChoice(c, path, ctx));
    return Status::ok();
  }
  asc::config::OpBlacklist b;
  Status lists = parseJsonConfig(text, path, "op_blacklist", kForms, &b);
  if (!lists.isOk()) {
    asc::config::ImplChoice one;
    if (!parseJsonConfig(text, path, "op_blacklist", kForms, &one).isOk()) return lists;
    return addImplChoice(one, path, ctx);
  }
  ctx->keep_types.insert(b.op_types().begin(), b.op_types().end());
  ctx->keep_names.insert(b.op_names().begin(), b.op_names().end());
  return Status::ok();
}

const std::string* implModeOf(const ir::Node& n, const PassContext& ctx) {
  auto find = [&](const std::string& key) -> const std::string* {
    auto it = ctx.impl_modes.find(key);
    return it == ctx.impl_modes.end() ? nullptr : &it->second;
  };
  if (const std::string* m = find(n.name)) return m;  // a node name wins over its type
  if (const std::string* m = find(n.op_type)) return m;
  if (const ops::OpDef* d = ops::lookup(n.op_type))
    if (const std::string* m = find(d->cannType())) return m;
  return ctx.impl_mode_all.empty() ? nullptr : &ctx.impl_mode_all;
}

// The registered pass: records each node's implementation choice as the attribute
// ops::kImplModeAttr, which the precision pass and the kernels read (and the OM keeps).
Status implModePass(ir::Graph& g, PassContext& ctx) {
  if (ctx.impl_modes.empty() && ctx.impl_mode_all.empty()) return Status::ok();
  size_t marked = 0;
  for (const auto& n : g.nodes()) {
    const std::string* mode = implModeOf(*n, ctx);
    if (!mode || n->attrs.getString(ops::kImplModeAttr, "") == *mode) continue;
    n->attrs.set(ops::kImplModeAttr, *mode);
    ++marked;
  }
  if (marked)
    ctx.log.push_back(fmt::format("impl-mode: {} nodes take an implementation choice", marked));
  return Status::ok();
}

}  // namespace asc::passes
