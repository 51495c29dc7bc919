// onnx.h: ONNX model import. Parses with the official onnx.proto (opsets 7 to 17), reads
// initializers without copying them (raw data stays in the parsed message, external data is
// memory-mapped), applies --input_shape overrides, then runs shape inference and folds the
// constant shape arithmetic that exporters emit.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/graph.h"
#include "asc/support/status.h"

namespace asc::frontend {

/// The default-domain opsets the importer reads.
constexpr int kMinOnnxOpset = 1;
constexpr int kMaxOnnxOpset = 24;

struct OnnxImportOptions {
  /// Shape overrides, as --input_shape gives them ("name:1,3,224,224;name2:...").
  std::string input_shape;
  /// Layout name recorded on 4-D (NCHW) or 5-D (NCDHW) graph inputs.
  std::string input_format = "NCHW";
  /// Fold constant subgraphs during shape inference.
  bool fold_constants = true;
  /// --op_name_map: model op type -> the ONNX op type (or CANN type) to read it as.
  std::map<std::string, std::string> op_name_map;
  /// Accept shapes known only at run time: -1 dims (in --input_shape, or symbolic dims the
  /// override leaves), and shape, axes or pads inputs that are no constants. Such a model comes
  /// back as imported, with ir::Graph::dynamic set and its shapes not inferred (the runtime
  /// compiles it per input shape). Off: they are errors (E10055, E1001, E16001).
  bool allow_dynamic = false;
};

/// Parses "name:d0,d1;name2:d0" (a name may itself contain ':'; the last one splits).
/// E10002 on bad syntax. An empty string gives an empty map.
ASC_API Result<std::map<std::string, ir::Shape>> parseInputShapes(const std::string& text);

/// Imports `path`. Errors: E13001 (cannot open), E13005 (not a valid ONNX protobuf), E13023 (over
/// 2 GB inline), E16001 (invalid graph or node, naming it), E1001 (--input_shape names an unknown
/// input, a wrong rank or a non-positive dim), E2002 (op with no mapping, naming node and type).
ASC_API Result<ir::Graph> importOnnx(const std::string& path, const OnnxImportOptions& opts = {});
/// The same from bytes already in memory (external data is resolved relative to `base_dir`).
ASC_API Result<ir::Graph> importOnnxBytes(const void* data, size_t size,
                                          const std::string& base_dir,
                                          const OnnxImportOptions& opts = {});

/// atc --mode=3: per node, whether asc-tools can take it. Causes use the real pre-check codes
/// (1 TYPE_UNSUPPORTED, 2 PARAM_INVALID, 9 NAME_REPEATED).
struct PrecheckOp {
  std::string name, type;
  int cause = 0;  // 0 OK
  std::string message;
};
struct PrecheckReport {
  std::string model;
  std::vector<PrecheckOp> ops;
  ASC_API size_t failed() const;
};
/// E13001/E13005 when the file cannot be read as ONNX; otherwise a report (never fails on the
/// model's content).
ASC_API Result<PrecheckReport> precheckOnnx(const std::string& path,
                                            const OnnxImportOptions& opts = {});

/// The node list of an ONNX model, as the importer names its nodes (an unnamed node is
/// "<op_type>_<position in the file>"), for tools that cut models apart (mscompare debug_reduce).
struct OnnxNodeRef {
  std::string name, op_type;
  std::vector<std::string> inputs, outputs;  // value names; "" for an omitted optional input
};
struct OnnxGraphRef {
  std::vector<OnnxNodeRef> nodes;            // in file order (ONNX requires it to be topological)
  std::vector<std::string> inputs, outputs;  // graph inputs that are no initializer; outputs
  int opset = 0;
};
/// E13001/E13005 as importOnnx; E10055 for a model whose initializers lie in external files.
ASC_API Result<OnnxGraphRef> describeOnnx(const std::string& path);

/// A value at the border of an extracted subgraph, with the type it gets there.
struct OnnxBorder {
  std::string name;
  ir::DType dtype = ir::DType::F32;
  ir::Shape shape;
};
/// A standalone ONNX model of the nodes `nodes` (indices into describeOnnx(path).nodes, kept in
/// file order) of `path`: `inputs` become graph inputs, `outputs` graph outputs, the
/// initializers the nodes read are copied, unnamed nodes get the importer's names, and opsets,
/// IR version and producer carry over. E10001 when a node reads a value that is neither
/// produced by the chosen nodes, nor an initializer, nor in `inputs`.
ASC_API Result<std::string> extractOnnxSubgraph(const std::string& path,
                                                const std::vector<size_t>& nodes,
                                                const std::vector<OnnxBorder>& inputs,
                                                const std::vector<OnnxBorder>& outputs);

}  // namespace asc::frontend
