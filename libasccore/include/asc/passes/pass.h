// pass.h: graph passes. Every transformation of the compiler is a registered pass: the clean-ups
// and fusions (one file each in src/passes/, named by one line of passes.def), the precision
// rewrite (--precision_mode) and the layout assignment (NC1HWC0). A pattern pass finds a pattern
// with a side-effect-free match() and replaces it with rewrite(), recording the source-model node
// names on whatever replaces them (_datadump_original_op_names), so dumps and profiles map back to
// the model.
//
// A pass says whether it changed the graph (PassContext::markChanged; a logged rewrite counts
// too). The runner also fingerprints the graph before and after each pass, so a pass that changes
// the graph and says nothing is still caught: after every pass that changed the graph, the graph
// is re-sorted, re-inferred and verified, with no exceptions.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/graph.h"
#include "asc/support/status.h"

namespace asc::passes {

struct PrecisionOptions;  // precision.h

/// Optimisation levels (atc --oo_level / --optimize): O1 folds and eliminates, O2 adds the
/// standard fusions, O3 (the default) adds everything, the layout and attention passes included.
enum class OptLevel { O1 = 1, O2 = 2, O3 = 3 };
/// "O1" | "O2" | "O3" (E10001 naming `option` and the accepted values otherwise).
ASC_API Result<OptLevel> parseOptLevel(const std::string& text, const char* option);
ASC_API const char* optLevelName(OptLevel level);

/// What one pass did in one run.
struct PassReport {
  std::string name;
  bool changed = false;
  double ms = 0;                 // the pass and the re-infer/verify after it
  std::vector<std::string> log;  // its rewrites, one line each
};

struct PassContext {
  /// One line per rewrite, e.g. "fuse-conv-activation: Conv 'c1' + Relu 'r1'".
  std::vector<std::string> log;
  /// One entry per pass run, in order.
  std::vector<PassReport> reports;
  /// Pass names switched off (a fusion switch file, --optimization_switch).
  std::set<std::string> disabled;
  /// Nodes no pass may fuse, fold or remove (atc --op_blacklist), by op type or by node name.
  std::set<std::string> keep_types, keep_names;
  /// The precision rewrite's settings; nullptr keeps every dtype (force_fp32).
  const PrecisionOptions* precision = nullptr;
  /// Per-op implementation choices (high_precision | high_performance) by node name, ONNX op
  /// type or CANN op type (--op_blacklist's per-op form, --op_select_implmode with
  /// --optypelist_for_implmode), and the choice for every other op ("" for none).
  std::map<std::string, std::string> impl_modes;
  std::string impl_mode_all;

  bool keeps(const ir::Node& n) const {
    return keep_types.count(n.op_type) > 0 || keep_names.count(n.name) > 0;
  }
  /// A pass calls this when it changed the graph (forEachMatch does it for each rewrite).
  void markChanged() { changed_ = true; }
  bool changedFlag() const { return changed_; }
  void resetChanged() { changed_ = false; }

 private:
  bool changed_ = false;
};

using PassFn = Status (*)(ir::Graph&, PassContext&);

struct PassInfo {
  const char* name;
  const char* kind;  // "cleanup", "fusion", "attention", "precision" or "layout"
  int min_level;     // the lowest OptLevel that runs it; 0: every level (required by an option)
  const char* description;
  PassFn fn;
};

/// Reads an --op_blacklist JSON file. Two forms: {"op_types": [...], "op_names": [...]} (nodes no
/// pass may touch, into ctx->keep_types/keep_names), and the seed's per-op implementation choice
/// {"op_name": "Conv2D", "impl_type": "high_precision"} as one object or a list (into
/// ctx->impl_modes). E13001 when it cannot be opened, E10032 when it is neither form, E10001 for
/// an impl_type other than high_precision or high_performance.
ASC_API Status readOpBlacklist(const std::string& path, PassContext* ctx);
/// E10001 naming `where` unless `mode` is high_precision or high_performance.
ASC_API Status checkImplMode(const std::string& mode, const std::string& where);
/// The implementation choice that applies to `n` (its name, then its ONNX type, then its CANN
/// type, then ctx.impl_mode_all), or nullptr.
ASC_API const std::string* implModeOf(const ir::Node& n, const PassContext& ctx);

/// Every pass, in registry order.
ASC_API const std::vector<PassInfo>& allPasses();
/// The pass named `name`, or nullptr.
ASC_API const PassInfo* findPass(const std::string& name);
/// Runs one pass: the pass, then (when it changed the graph, by its word or by fingerprint)
/// dead-node removal, re-sorting, shape re-inference and the verifier. Appends a PassReport.
/// A pass switched off in ctx.disabled is skipped.
ASC_API Status runPass(ir::Graph& g, const PassInfo& pass, PassContext& ctx);
/// Runs the named passes in order (E10001 for an unknown name), whatever their level.
ASC_API Status runPasses(ir::Graph& g, const std::vector<std::string>& names, PassContext& ctx);
/// The default pipeline, in order: every pass, clean-ups first, precision and layout last.
ASC_API std::vector<std::string> defaultPipeline();
/// The default pipeline's passes that run at `level`.
ASC_API std::vector<std::string> pipelineFor(OptLevel level);
/// Runs pipelineFor(level).
ASC_API Status runPipeline(ir::Graph& g, OptLevel level, PassContext& ctx);
/// A level and a PassContext's settings (switched-off passes, kept nodes, precision, impl
/// modes) as named string lists, and back: what a dynamic model's OM records so that the runtime
/// compiles it per shape exactly as atc would have (runtime/dynamic.h).
using Settings = std::map<std::string, std::vector<std::string>>;
ASC_API Settings encodeSettings(OptLevel level, const PassContext& ctx);
/// Fills *level, *ctx and *precision (ctx->precision then points at it). E10041 for a list it
/// cannot read.
ASC_API Status decodeSettings(const Settings& in, OptLevel* level, PassContext* ctx,
                              PrecisionOptions* precision);
/// runPipeline at O3 without the precision and layout passes (the graph stays fp32 and NCHW): the
/// optimised graph a --check_equivalence run compares.
ASC_API Status runDefaultPipeline(ir::Graph& g, PassContext& ctx);

}  // namespace asc::passes
