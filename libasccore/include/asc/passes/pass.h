// pass.h: graph passes. Each pass is one file in src/passes/, named by one line of passes.def;
// inside it a side-effect-free match() finds a pattern and rewrite() replaces it, recording the
// source-model node names on whatever replaces them (_datadump_original_op_names), so dumps and
// profiles map back to the model. After every pass the graph is re-sorted, re-inferred and
// verified.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/graph.h"
#include "asc/support/status.h"

namespace asc::passes {

struct PassContext {
  /// One line per rewrite, e.g. "fuse-conv-activation: Conv 'c1' + Relu 'r1'".
  std::vector<std::string> log;
  /// Pass names switched off (a fusion switch file, or --passes).
  std::set<std::string> disabled;
  /// Nodes no pass may fuse, fold or remove (atc --op_blacklist), by op type or by node name.
  std::set<std::string> keep_types, keep_names;
  bool keeps(const ir::Node& n) const {
    return keep_types.count(n.op_type) > 0 || keep_names.count(n.name) > 0;
  }
};

using PassFn = Status (*)(ir::Graph&, PassContext&);

struct PassInfo {
  const char* name;
  const char* description;
  PassFn fn;
};

/// Reads an --op_blacklist JSON file ({"op_types": [...], "op_names": [...]}) into
/// ctx->keep_types/keep_names. E13001 when it cannot be opened, E10032 when it does not parse.
ASC_API Status readOpBlacklist(const std::string& path, PassContext* ctx);

/// Every pass, in registry order.
ASC_API const std::vector<PassInfo>& allPasses();
/// Runs the named passes in order (E10001 for an unknown name), each followed by re-sorting,
/// shape re-inference and the verifier.
ASC_API Status runPasses(ir::Graph& g, const std::vector<std::string>& names, PassContext& ctx);
/// The default optimisation pipeline atc applies (see src/passes/pipeline.cpp).
ASC_API Status runDefaultPipeline(ir::Graph& g, PassContext& ctx);
ASC_API std::vector<std::string> defaultPipeline();

}  // namespace asc::passes
