// harness.h: what both precision searches share: the imported model and its inputs, the fp32
// reference run, compiling a graph under a precision mode with a keep set, running a graph with
// every value captured, and the cosine of two tensors.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "asc/debug/precision_debug.h"
#include "asc/ir/graph.h"
#include "asc/ir/tensor.h"
#include "asc/support/status.h"

namespace asc::debug::detail {

/// Every value of a run, by name: graph inputs and node outputs as stored (fp16 where the
/// compiled graph keeps fp16).
using Values = std::map<std::string, ir::Tensor>;

/// Checks the options, imports the model (static shapes only) and reads or makes its inputs.
struct Model {
  ir::Graph graph;
  std::vector<ir::Tensor> inputs;  // per graph input
};
Result<Model> openModel(const DebugOptions& o);

/// The inputs a graph takes, from .npy files (count, dtype and shape checked) or random.
Result<std::vector<ir::Tensor>> readInputs(const ir::Graph& g, const DebugOptions& o);

/// Compiles a copy of `g` under o.precision_mode with `keep` kept fp32 (atc's order of work,
/// without weight packing).
Result<ir::Graph> compileUnder(const ir::Graph& g, const DebugOptions& o,
                               const std::set<std::string>& keep);

/// Runs `g` on `inputs` and returns its outputs; with `values`, also every value (memory is then
/// not reused, so each stays readable).
Result<std::vector<ir::Tensor>> runGraph(ir::Graph g, const std::vector<ir::Tensor>& inputs,
                                         int threads, Values* values = nullptr);

/// Cosine similarity as mscompare computes it; NaN (one side all zero, a NaN or an infinity)
/// counts as 0, so it never passes a target.
double cosine(const ir::Tensor& mine, const ir::Tensor& golden);
/// Per pair, and the smallest.
std::vector<double> cosines(const std::vector<ir::Tensor>& mine,
                            const std::vector<ir::Tensor>& golden, double* min_cosine);

double msSince(int64_t start_ns);
int64_t nowNs();

}  // namespace asc::debug::detail
