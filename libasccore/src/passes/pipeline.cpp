// pipeline.cpp: the pass registry, the runner (one pass, then the re-sort, re-infer and verify
// tail whenever the graph changed) and the default pipeline, as a plain list.
#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <variant>

#include "asc/ops/registry.h"
#include "asc/passes/pass.h"
#include "asc/passes/precision.h"
#include "asc/support/log.h"

namespace asc::passes {

#define ASC_PASS(name, kind, level, fn, text) Status fn(ir::Graph&, PassContext&);
#include "passes.def"
#undef ASC_PASS

const std::vector<PassInfo>& allPasses() {
  static const std::vector<PassInfo> table = {
#define ASC_PASS(name, kind, level, fn, text) {name, kind, level, text, fn},
#include "passes.def"
#undef ASC_PASS
  };
  return table;
}

const PassInfo* findPass(const std::string& name) {
  for (const auto& p : allPasses())
    if (name == p.name) return &p;
  return nullptr;
}

Result<OptLevel> parseOptLevel(const std::string& text, const char* option) {
  if (text == "O1") return OptLevel::O1;
  if (text == "O2") return OptLevel::O2;
  if (text == "O3") return OptLevel::O3;
  return Status::error(ErrorCode::InvalidParam,
                       "Value {} for parameter --{} is invalid. Reason: use O1 (folding and "
                       "elimination), O2 (adds the standard fusions) or O3 (everything; the "
                       "default)",
                       text, option);
}

const char* optLevelName(OptLevel level) {
  switch (level) {
    case OptLevel::O1:
      return "O1";
    case OptLevel::O2:
      return "O2";
    default:
      return "O3";
  }
}

namespace {

// A hash of everything a pass can change: nodes (identity, type, edges, attributes, names) and
// values (dtype, shape, format, constant data), and the model's inputs and outputs.
size_t fingerprint(const ir::Graph& g) {
  size_t h = 0;
  auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  auto str = [&](const std::string& s) { mix(std::hash<std::string>{}(s)); };
  auto ptr = [&](const void* p) { mix(std::hash<const void*>{}(p)); };
  for (const auto& n : g.nodes()) {
    ptr(n.get());
    str(n->op_type);
    str(n->name);
    for (auto* v : n->inputs) ptr(v);
    for (auto* v : n->outputs) ptr(v);
    mix(n->original_names.size());
    for (const auto& [key, value] : n->attrs.all()) {
      str(key);
      mix(value.index());
      std::visit(
          [&](const auto& a) {
            using T = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<T, int64_t>)
              mix(static_cast<size_t>(a));
            else if constexpr (std::is_same_v<T, float>)
              mix(std::hash<float>{}(a));
            else if constexpr (std::is_same_v<T, std::string>)
              str(a);
            else if constexpr (std::is_same_v<T, ir::Tensor>)
              ptr(a.data.get());
            else
              for (const auto& e : a) {
                if constexpr (std::is_same_v<std::decay_t<decltype(e)>, std::string>)
                  str(e);
                else
                  mix(std::hash<std::decay_t<decltype(e)>>{}(e));
              }
          },
          value);
    }
  }
  for (const auto& v : g.values()) {
    ptr(v.get());
    mix(static_cast<size_t>(v->dtype));
    for (auto d : v->shape) mix(static_cast<size_t>(d));
    str(v->format);
    ptr(v->data.get());
  }
  for (auto* v : g.inputs) ptr(v);
  for (auto* v : g.outputs) ptr(v);
  return h;
}

}  // namespace

Status runPass(ir::Graph& g, const PassInfo& pass, PassContext& ctx) {
  if (ctx.disabled.count(pass.name)) {
    ASC_LOG_INFO("pass {} switched off", pass.name);
    return Status::ok();
  }
  const auto t0 = std::chrono::steady_clock::now();
  const size_t log_before = ctx.log.size();
  const size_t before = fingerprint(g);
  ctx.resetChanged();
  ASC_RETURN_IF_ERROR(pass.fn(g, ctx));
  PassReport report;
  report.name = pass.name;
  report.log.assign(ctx.log.begin() + static_cast<std::ptrdiff_t>(log_before), ctx.log.end());
  report.changed = ctx.changedFlag() || !report.log.empty() || fingerprint(g) != before;
  if (report.changed) {
    g.removeNodesIf([](const ir::Node& n) { return n.outputs.empty(); });
    Status st = g.topoSort();
    if (st.isOk()) {
      g.pruneValues();
      ops::InferOptions io;
      io.fold_constants = false;
      st = ops::inferGraph(g, io);
    }
    if (st.isOk()) st = ir::verify(g);
    if (!st.isOk())
      return Status::error(ErrorCode::Internal,
                           "the graph is invalid after pass {}: {}; switch the pass off "
                           "(--fusion_switch_file, '{}:off') and report the model",
                           pass.name, st.message(), pass.name);
  }
  for (const auto& line : report.log) ASC_LOG_INFO("{}", line);
  report.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ctx.reports.push_back(std::move(report));
  return Status::ok();
}

Status runPasses(ir::Graph& g, const std::vector<std::string>& names, PassContext& ctx) {
  for (const auto& name : names) {
    const PassInfo* info = findPass(name);
    if (!info) {
      std::vector<std::string> known;
      for (const auto& p : allPasses()) known.push_back(p.name);
      return Status::error(ErrorCode::InvalidParam, "unknown pass '{}'; known passes: {}", name,
                           fmt::join(known, ", "));
    }
    ASC_RETURN_IF_ERROR(runPass(g, *info, ctx));
  }
  return Status::ok();
}

std::vector<std::string> defaultPipeline() {
  // Order matters: clean-ups first (folding, no-ops, duplicates, dead nodes), then constant
  // bias adds into Convs (TensorFlow's BiasAdd, before BN folding sees the Conv), BN folding
  // and Pad folding, then GELU and LayerNorm (they free their Mul/Add nodes), bias adds, the
  // attention scores, and residual adds before activations, so Conv -> Add -> Relu becomes one
  // Conv whose post-ops run sum then Relu. Precision and layout come last: they see the fused
  // graph, as the chip would run it.
  return {"impl-mode",
          "fold-constants",
          "eliminate-identity",
          "eliminate-common",
          "eliminate-dead",
          "fuse-conv-bias",
          "fuse-conv-bn",
          "fuse-pad",
          "prune-conv-taps",
          "fuse-gelu",
          "fuse-layernorm",
          "fuse-swish",
          "fuse-channel-shuffle",
          "fuse-matmul-add",
          "fuse-matmul-transpose-scale",
          "fuse-conv-add",
          "fuse-conv-activation",
          "precision",
          "assign-layout"};
}

std::vector<std::string> pipelineFor(OptLevel level) {
  std::vector<std::string> names;
  for (const auto& name : defaultPipeline())
    if (findPass(name)->min_level <= static_cast<int>(level)) names.push_back(name);
  return names;
}

Status runPipeline(ir::Graph& g, OptLevel level, PassContext& ctx) {
  return runPasses(g, pipelineFor(level), ctx);
}

Status runDefaultPipeline(ir::Graph& g, PassContext& ctx) {
  std::vector<std::string> names;
  for (const auto& name : pipelineFor(OptLevel::O3)) {
    const std::string kind = findPass(name)->kind;
    if (kind != "precision" && kind != "layout") names.push_back(name);
  }
  return runPasses(g, names, ctx);
}

Settings encodeSettings(OptLevel level, const PassContext& ctx) {
  auto list = [](const std::set<std::string>& set) {
    return std::vector<std::string>(set.begin(), set.end());
  };
  Settings s;
  s["level"] = {optLevelName(level)};
  s["disabled"] = list(ctx.disabled);
  s["keep_types"] = list(ctx.keep_types);
  s["keep_names"] = list(ctx.keep_names);
  for (const auto& [key, mode] : ctx.impl_modes) s["impl_modes"].push_back(key + "=" + mode);
  s["impl_mode_all"] = {ctx.impl_mode_all};
  if (const PrecisionOptions* p = ctx.precision) {
    s["precision_mode"] = {p->mode};
    s["keep_fp32"] = list(p->keep_fp32);
    s["fp16_inputs"] = list(p->fp16_inputs);
    s["output_type"] = {p->output_type};
    s["black_add"] = list(p->black_add);
    s["black_remove"] = list(p->black_remove);
    s["fp16_add"] = list(p->fp16_add);
  }
  return s;
}

Status decodeSettings(const Settings& in, OptLevel* level, PassContext* ctx,
                      PrecisionOptions* precision) {
  auto get = [&](const char* key) -> const std::vector<std::string>& {
    static const std::vector<std::string> none;
    auto it = in.find(key);
    return it == in.end() ? none : it->second;
  };
  auto one = [&](const char* key) { return get(key).empty() ? std::string() : get(key)[0]; };
  auto set = [&](const char* key) {
    return std::set<std::string>(get(key).begin(), get(key).end());
  };
  const std::string lv = one("level");
  auto parsed = parseOptLevel(lv.empty() ? "O3" : lv, "_asc_rtc_level");
  if (!parsed)
    return Status::error(ErrorCode::ModelLoadFailed,
                         "the recorded optimisation level '{}' is not "
                         "O1, O2 or O3",
                         lv);
  *level = *parsed;
  ctx->disabled = set("disabled");
  ctx->keep_types = set("keep_types");
  ctx->keep_names = set("keep_names");
  for (const std::string& kv : get("impl_modes")) {
    const size_t eq = kv.rfind('=');
    if (eq == std::string::npos)
      return Status::error(ErrorCode::ModelLoadFailed,
                           "the recorded impl mode '{}' is not "
                           "name=mode",
                           kv);
    ctx->impl_modes[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  ctx->impl_mode_all = one("impl_mode_all");
  if (in.count("precision_mode")) {
    precision->mode = one("precision_mode");
    precision->keep_fp32 = set("keep_fp32");
    precision->fp16_inputs = set("fp16_inputs");
    precision->output_type = one("output_type");
    precision->black_add = set("black_add");
    precision->black_remove = set("black_remove");
    precision->fp16_add = set("fp16_add");
    ctx->precision = precision;
  }
  return Status::ok();
}

}  // namespace asc::passes
