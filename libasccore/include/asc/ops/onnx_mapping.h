// onnx_mapping.h: ONNX nodes that a custom-operator plugin takes over. A framework plugin
// (REGISTER_CUSTOM_OP(type).FrameworkType(ONNX).OriginOpType("ai.onnx::11::LeakyRelu")
// .ParseParamsByOperatorFn(fn), register/register.h) maps ONNX nodes of one op type and opset
// to its custom operator, the parse function giving the custom node's attributes. The ONNX
// importer asks here first, so a plugin's mapping overrides the built-in reading of that type,
// as a CANN vendor package overrides the built-in parser.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/attr.h"
#include "asc/support/status.h"

namespace asc::ops {

/// What a parse function is given of the ONNX node (CANN's op_src: the NodeProto's fields).
struct OnnxNodeView {
  std::string name, op_type, domain, doc_string;
  std::vector<std::string> inputs, outputs;
  /// The node's attributes as CANN's parser gives them to a parse function: the JSON text
  /// {"attribute": [...]} (frontend/onnx: onnxAttributeJson).
  std::string attribute_json;
  /// The same attributes as imported (for AutoMappingByOpFn: by name).
  const ir::Attrs* attrs = nullptr;
};

struct OnnxCustomMapping {
  std::string domain;  // "" for ai.onnx
  // The model's opsets of that domain it applies to: one (CANN's "ai.onnx::11::LeakyRelu"), or
  // from one on (an origin of the custom operator's own type).
  int opset_from = 0, opset_to = 0;
  std::string onnx_type;  // "LeakyRelu"
  std::string custom_type;
  std::string origin;  // the plugin, for messages
  /// The custom node's attributes, or an error naming the reason.
  std::function<Result<ir::Attrs>(const OnnxNodeView&)> parse;
};

/// Adds a mapping (a plugin's registration). E10001 when another mapping takes the same domain
/// and type at one of its opsets.
ASC_API Status addOnnxCustomMapping(OnnxCustomMapping m);
/// The mapping for an ONNX node of `op_type` in `domain` ("" or "ai.onnx": the default domain)
/// when the model imports that domain at `opset`, or nullptr.
ASC_API const OnnxCustomMapping* findOnnxCustomMapping(const std::string& domain, int opset,
                                                       const std::string& op_type);

/// Every mapping added so far, in the order added (atc --list_ops).
ASC_API std::vector<OnnxCustomMapping> onnxCustomMappings();

}  // namespace asc::ops
