// registry.h: the table of operators built from src/ops/ops.def, and graph-wide shape inference.
#pragma once

#include <functional>
#include <string>

#include <string_view>
#include <vector>

#include "asc/asc.h"
#include "asc/ops/op_def.h"

namespace asc::ops {

/// The op with IR (ONNX) name `name`, or nullptr.
ASC_API const OpDef* lookup(std::string_view name);
/// The op whose CANN type is `type` ("Conv2D"), or nullptr.
ASC_API const OpDef* lookupByCann(std::string_view type);
/// The CANN op type of node `n` as an OM names it (OpDef::cannSpelling's type where the node
/// decides it, such as BatchMatMulV2; else cannType; the IR type for an unknown op): the OM
/// writer, dump file names and msprof's op type all use it.
ASC_API std::string cannTypeOf(const ir::Node& n);
/// All ops, sorted by name: the in-tree ones (src/ops/ops.def) and those registered at run time.
ASC_API const std::vector<const OpDef*>& allOps();

/// Adds an operator at run time (a custom-op plugin; `origin` names it in messages). From then
/// on it is found, inferred, optimised, planned and run like an in-tree op: every pass and the
/// runtime ask the OpDef. E10001 when its name or CANN type is taken, or it lacks shape
/// inference or a CPU kernel. Register before compiling or loading models, from one thread.
ASC_API Status registerOp(OpDef def, const std::string& origin);

struct InferOptions {
  /// Evaluate nodes whose inputs are all constant and replace them by constants.
  bool fold_constants = true;
  /// Largest output (bytes) a folded node may produce.
  size_t fold_limit_bytes = size_t(64) << 20;
  /// Nodes for which this returns true are never folded (atc --op_blacklist).
  std::function<bool(const ir::Node&)> keep;
  /// When a node fails after asking for the data of an input that is not a constant (a shape,
  /// axes or pads computed at run time, or the input of an op whose output shape depends on
  /// data), that input is stored here (nullptr otherwise); the returned status is unchanged.
  const ir::Value** needs_value = nullptr;
  /// Infer what can be known before run time (a dynamic graph, ir::Graph::dynamic): a node with
  /// an input of unknown dtype or dims, or one that cannot be inferred (it needs a run-time value),
  /// is left as it was, its outputs unknown; constants still fold.
  bool partial = false;
};

/// Walks the graph in order: checks that every op is known (E2002 naming node and op type) and
/// its input/output counts, canonicalizes, infers output dtypes and shapes (E16001 on a bad
/// node), and folds constant subgraphs. Removes folded nodes and unused values.
ASC_API Status inferGraph(ir::Graph& g, const InferOptions& opts = {});

/// One step of inferGraph, for an importer that needs shapes while it builds the graph (the
/// TensorFlow frontend: SAME padding, layout and strided-slice rules depend on input shapes).
/// `n`'s inputs must be inferred already. When the node folds, its outputs become constants
/// (data set, producer cleared) and *folded is set: the caller removes the node. Same errors as
/// inferGraph.
ASC_API Status inferNode(ir::Graph& g, ir::Node& n, const InferOptions& opts, bool* folded);

/// FLOPs of one node (0 when the op defines none).
ASC_API int64_t nodeFlops(const ir::Node& n);

}  // namespace asc::ops
