// pipeline.cpp: the pass registry and the default pipeline, as a plain list.
#include <fmt/format.h>

#include "asc/ops/registry.h"
#include "asc/passes/pass.h"
#include "asc/support/log.h"
#include "op_blacklist.pb.h"
#include "support/json_config.h"

namespace asc::passes {

#define ASC_PASS(name, fn, text) Status fn(ir::Graph&, PassContext&);
#include "passes.def"
#undef ASC_PASS

const std::vector<PassInfo>& allPasses() {
  static const std::vector<PassInfo> table = {
#define ASC_PASS(name, fn, text) {name, text, fn},
#include "passes.def"
#undef ASC_PASS
  };
  return table;
}

std::vector<std::string> defaultPipeline() {
  // Order matters: clean-ups first (folding, no-ops, duplicates, dead nodes), then BN folding
  // and Pad folding, then GELU and LayerNorm (they free their Mul/Add nodes), bias adds, and
  // residual adds before activations, so Conv -> Add -> Relu becomes one Conv whose post-ops
  // run sum then Relu.
  return {"fold-constants", "eliminate-identity", "eliminate-common", "eliminate-dead",
          "fuse-conv-bn",   "fuse-pad",           "fuse-gelu",        "fuse-layernorm",
          "fuse-swish",     "fuse-matmul-add",    "fuse-matmul-transpose-scale",
          "fuse-conv-add",  "fuse-conv-activation"};
}

Status runPasses(ir::Graph& g, const std::vector<std::string>& names, PassContext& ctx) {
  for (const auto& name : names) {
    const PassInfo* info = nullptr;
    for (const auto& p : allPasses())
      if (name == p.name) info = &p;
    if (!info) {
      std::vector<std::string> known;
      for (const auto& p : allPasses()) known.push_back(p.name);
      return Status::error(ErrorCode::InvalidParam, "unknown pass '{}'; known passes: {}", name,
                           fmt::join(known, ", "));
    }
    if (ctx.disabled.count(name)) {
      ASC_LOG_INFO("pass {} switched off", name);
      continue;
    }
    const size_t before = ctx.log.size();
    ASC_RETURN_IF_ERROR(info->fn(g, ctx));
    if (ctx.log.size() == before) continue;
    g.removeNodesIf([](const ir::Node& n) { return n.outputs.empty(); });
    ASC_RETURN_IF_ERROR(g.topoSort());
    g.pruneValues();
    ops::InferOptions io;
    io.fold_constants = false;
    Status st = ops::inferGraph(g, io);
    if (st.isOk()) st = ir::verify(g);
    if (!st.isOk())
      return Status::error(ErrorCode::Internal, "after pass {}: {}", name, st.message());
    for (size_t i = before; i < ctx.log.size(); ++i) ASC_LOG_INFO("{}", ctx.log[i]);
  }
  return Status::ok();
}

Status readOpBlacklist(const std::string& path, PassContext* ctx) {
  asc::config::OpBlacklist b;
  ASC_RETURN_IF_ERROR(readJsonConfig(
      path, "op_blacklist", R"({"op_types": ["Softmax"], "op_names": ["node_name"]})", &b));
  ctx->keep_types.insert(b.op_types().begin(), b.op_types().end());
  ctx->keep_names.insert(b.op_names().begin(), b.op_names().end());
  return Status::ok();
}

Status runDefaultPipeline(ir::Graph& g, PassContext& ctx) {
  return runPasses(g, defaultPipeline(), ctx);
}

}  // namespace asc::passes
