// onnx_import.h: what the ONNX importer's files share (private to frontend/onnx): the import
// state, the tensor decoder (onnx_tensor.cpp) and the checks the pre-check repeats.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>

#include "asc/frontend/onnx.h"
#include "asc/ir/tensor.h"
#include "asc/ops/onnx_mapping.h"
#include "asc/ops/registry.h"
#include "asc/support/file.h"
#include "onnx/onnx.pb.h"

namespace asc::frontend::onnx_import {
// Protobuf nesting the parser accepts (each subgraph level costs three: Node, Attribute,
// Graph). Deeper files are rejected as unparsable instead of recursing further.

constexpr int kMaxProtoDepth = ir::kMaxSubgraphNesting * 3 + 10;

inline Status invalid(const std::string& msg) {
  return Status::error(ErrorCode::InvalidModel, msg);
}

struct ImportState {
  std::shared_ptr<onnx::ModelProto> model;
  std::string base_dir;
  std::map<std::string, std::shared_ptr<MappedFile>> external_files;
  // Zero-copy import (importOnnx): the main graph's initializers were parsed without their
  // raw_data, which stays in the mapped file; here, where it lies.
  struct RawRef {
    const uint8_t* data;
    size_t size;
  };
  std::unordered_map<const onnx::TensorProto*, RawRef> raw_refs;
  std::shared_ptr<const void> raw_owner;  // keeps those bytes mapped
};

/// A TensorProto's value (raw, typed fields, external data; int4 unpacked, float8 codes kept).
/// Raw data is referenced, not copied, where the file or the parsed message keeps it.
Result<ir::Tensor> tensorFromProto(ImportState& st, const onnx::TensorProto& t);

/// The node's attributes as CANN's ONNX parser gives them to a plugin's parse function: JSON
/// text {"attribute": [...]} (onnx_custom_map.cpp says its form); for a node with attributes.
std::string onnxAttributeJson(const onnx::NodeProto& np);
/// What a plugin's parse function is given of the node; `attrs` its attributes as imported.
ops::OnnxNodeView onnxNodeView(const onnx::NodeProto& np, const ir::Attrs* attrs);

/// The model's opset of ONNX domain `domain` ("" and "ai.onnx" alike), -1 when not imported.
inline int opsetOf(const onnx::ModelProto& m, const std::string& domain) {
  const bool plain = domain.empty() || domain == "ai.onnx";
  for (const auto& op : m.opset_import())
    if (plain ? op.domain().empty() || op.domain() == "ai.onnx" : op.domain() == domain)
      return static_cast<int>(op.version());
  return -1;
}

/// A custom operator (a plugin's) registered for this ONNX domain.
inline bool customDomainOp(const std::string& domain, const std::string& op_type) {
  const ops::OpDef* d = ops::lookup(op_type);
  return d && !d->onnxDomainName().empty() && d->onnxDomainName() == domain;
}

}  // namespace asc::frontend::onnx_import
