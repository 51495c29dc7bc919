// precision_debug.h: finding the fix for "the fp16 model is wrong" without an NPU. Both searches
// compile and run the model in process, round after round, against the fp32 run of the same
// ONNX model on the same inputs:
// - searchKeepSet() finds a small set of nodes that must stay fp32 (atc's --keep_dtype) so that
//   every model output reaches a target cosine (mscompare debug_precision);
// - reduceDivergence() cuts the smallest connected subgraph that still diverges, with the golden
//   values that flow into it (mscompare debug_reduce).
// Neither prints; progress goes to a callback.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/tensor.h"
#include "asc/support/status.h"

namespace asc::debug {

/// What both searches take.
struct DebugOptions {
  std::string model;                // an ONNX file
  std::vector<std::string> inputs;  // .npy files in model input order; empty: random
  uint64_t seed = 1;                // random inputs: floats uniform in [-1, 1)
  std::string precision_mode = "force_fp16";
  std::string soc_version = "Ascend310P3";
  double target_cosine = 0.999;
  int threads = 0;  // 0: all cores
};

/// One compile+run round.
struct Round {
  int index = 0;                  // 1-based
  std::string phase;              // "baseline", "all fp32", "bisect", "confirm", "prune", "grow"
  std::vector<std::string> keep;  // the nodes kept fp32 (debug_precision), or the cut's nodes
  std::vector<double> cosines;    // per output against the fp32 run
  double min_cosine = 0;
  bool passed = false;  // every output reached the target (debug_reduce: still diverges)
  double ms = 0;        // compile + run
};
using Progress = std::function<void(const Round&)>;

struct KeepSearchResult {
  /// The compiled ops the mode puts in fp16, in execution order, each named by a source node it
  /// stands for (atc's --keep_dtype matches the source names of fused ops): the search space.
  std::vector<std::string> candidates;
  std::vector<std::string> keep;  // the set found (empty: nothing to do)
  double final_cosine = 0;        // the smallest output cosine with `keep`
  bool reached = false;           // every output reached the target
  bool round_limit = false;       // stopped at max_rounds: `keep` passes but may not be minimal
  std::vector<Round> rounds;
  double seconds = 0;
};

/// Searches for a small keep set: a baseline round (nothing kept: when it already passes, the
/// answer is the empty set), a round with every candidate kept (when even that fails, the target
/// is out of reach: `reached` false, `keep` every candidate), then two bisections over the
/// execution order for the shortest window [s, e) of candidates that passes when kept (a run of
/// overflowing layers is found whole), then pruning inside the window by adaptive group testing
/// (drop a half when the rest passes, else split it), so a block of unneeded nodes goes in one
/// round and a needed one costs about log2(w). About 2 + 2·log2(n) + k·log2(w) rounds for k
/// needed nodes in a window of w out of n candidates; at `max_rounds` it stops with the last
/// set that passed. E10001 for a target outside
/// (0, 1] or an unknown mode; E1001 for inputs that do not fit the model (count, dtype, shape);
/// import and compile errors as atc gives them.
ASC_API Result<KeepSearchResult> searchKeepSet(const DebugOptions& options, int max_rounds,
                                               const Progress& progress = {});

struct ReduceResult {
  std::string onnx;                      // the reduced model (serialized ModelProto)
  std::vector<std::string> nodes;        // its nodes, in execution order
  std::vector<std::string> input_names;  // its graph inputs, in order
  std::vector<ir::Tensor> inputs;        // their golden values (fp32 run of the whole model)
  std::vector<std::string> output_names;
  std::vector<ir::Tensor> goldens;  // its outputs in the fp32 run
  std::vector<double> cosines;      // its outputs under the mode, against `goldens`
  std::string first_diverging;      // the node whose outputs first diverge in the full run
  bool diverges = false;            // false: the whole model reaches the target
  std::vector<Round> rounds;
  double seconds = 0;
};

/// Finds the first node (in execution order) whose outputs fall below the target cosine in the
/// whole model's run under the mode, then grows a cut backwards from it, one level of producers
/// at a time, feeding the values that cross into the cut from the fp32 run, until compiling and
/// running the cut alone under the mode diverges too. `diverges` false (no cut) when the model
/// reaches the target. Errors as searchKeepSet(); E10055 for a model whose weights lie in
/// external files.
ASC_API Result<ReduceResult> reduceDivergence(const DebugOptions& options,
                                              const Progress& progress = {});

}  // namespace asc::debug
