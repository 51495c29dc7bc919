// fold_constants.cpp: nodes whose inputs are all constants are evaluated now and replaced by
// their results (the ONNX importer already does this while inferring shapes; the pass makes it
// available on any graph, e.g. after another rewrite produced new constant subgraphs).
#include <fmt/format.h>

#include "asc/ops/registry.h"
#include "pass_util.h"

namespace asc::passes {

Status foldConstants(ir::Graph& g, PassContext& ctx) {
  const size_t before = g.nodes().size();
  ops::InferOptions io;
  io.fold_constants = true;
  io.keep = [&ctx](const ir::Node& n) { return ctx.keeps(n); };
  ASC_RETURN_IF_ERROR(ops::inferGraph(g, io));
  if (g.nodes().size() != before)
    ctx.log.push_back(fmt::format("fold-constants: {} nodes evaluated at compile time",
                                  before - g.nodes().size()));
  return Status::ok();
}

}  // namespace asc::passes
