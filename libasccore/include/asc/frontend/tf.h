// tf.h: TensorFlow import (atc --framework=3). Reads a frozen GraphDef (.pb) with the project's
// own tf_graph.proto (TensorFlow's public field numbers), converts each node to IR ops in
// topological order, inferring shapes node by node (SAME padding and strided slices need them)
// and folding constant subgraphs such as Shape/StridedSlice/Pack chains as it goes. The model
// keeps its NHWC inputs and outputs; ops that the runtime computes in NCHW (Conv, pooling,
// BatchNorm, Resize) get Transpose nodes at the edges of NCHW regions, and element-wise ops
// between them stay in NCHW, so a MobileNet-like chain has transposes only at its ends.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/frontend/onnx.h"
#include "asc/ir/graph.h"
#include "asc/support/status.h"

namespace asc::frontend {

struct TfImportOptions {
  /// Shape overrides, as --input_shape gives them ("name:1,224,224,3;name2:..."); names are
  /// Placeholder node names. A placeholder with unknown dims needs one.
  std::string input_shape;
  /// Layout recorded on 4-D graph inputs: NHWC (the default, as the real atc), NCHW or ND. The
  /// data is never reordered: each op's own data_format attribute says how it reads its input.
  std::string input_format = "NHWC";
  /// Fold constant subgraphs while importing.
  bool fold_constants = true;
};

/// Imports the frozen GraphDef at `path`. Graph outputs are the nodes no other node reads (all
/// outputs of a Split, output 0 otherwise); --out_nodes picks others later by TF node name.
/// Errors: E13001 (cannot open), E13005 (not a GraphDef: truncated or another format),
/// E13023 (over 2 GB), E16001 (invalid graph, node or attribute, naming it), E1001
/// (--input_shape names an unknown placeholder, or a placeholder's dims are unknown),
/// E2002 (op type with no mapping, naming node and type).
ASC_API Result<ir::Graph> importTf(const std::string& path, const TfImportOptions& opts = {});
/// The same from bytes in memory.
ASC_API Result<ir::Graph> importTfBytes(const void* data, size_t size,
                                        const TfImportOptions& opts = {});

/// The TensorFlow op types the importer maps, sorted.
ASC_API std::vector<std::string> tfSupportedOps();

/// A TensorFlow op type as declared once in the converter table (frontend/tf): the IR ops it may
/// write, and its row of docs/tensorflow.md (`shown` ops, `notes`).
struct TfOpInfo {
  std::string type;
  std::vector<std::string> ir_ops;
  std::string shown, notes;
};
/// Every TensorFlow op type the importer takes, sorted by name.
ASC_API const std::vector<TfOpInfo>& tfOps();

/// atc --mode=3 for a GraphDef: per node, whether asc-tools can take it (causes as for ONNX).
/// E13001/E13005 when the file cannot be read as a GraphDef.
ASC_API Result<PrecheckReport> precheckTf(const std::string& path,
                                          const TfImportOptions& opts = {});

/// atc --mode=1 --framework=3: the GraphDef as JSON (protobuf's JSON mapping, TensorFlow's
/// field names). E13001/E13005 as importTf.
ASC_API Result<std::string> tfGraphToJson(const std::string& path);

}  // namespace asc::frontend
