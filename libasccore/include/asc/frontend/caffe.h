// caffe.h: Caffe model import (atc --framework=0). The deploy .prototxt (protobuf text format)
// gives the layers, the .caffemodel (binary) their weights, matched by layer name; both the
// current `layer` form and the old V1 `layers` form (enum types) are read. Each Caffe layer
// becomes one or a few IR nodes (ONNX op names) that keep the layer name in original_names, so
// dumps and profiles map back to the Caffe layers. docs/caffe.md lists the layers and their
// mapping.
#pragma once

#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/frontend/onnx.h"
#include "asc/ir/graph.h"
#include "asc/support/status.h"

namespace asc::frontend {

struct CaffeImportOptions {
  /// Shape overrides, as --input_shape gives them ("data:1,3,224,224").
  std::string input_shape;
  /// Layout name recorded on 4-D graph inputs (NCHW or ND).
  std::string input_format = "NCHW";
  /// Fold constant subgraphs during shape inference.
  bool fold_constants = true;
};

/// Imports a Caffe model. Errors: E13001 (cannot open a file), E13018 (the prototxt does not
/// parse: line and column), E13005 (the caffemodel is no binary NetParameter), E16001 (a layer's
/// parameters, blobs or shapes are invalid, or its weights are missing from the caffemodel),
/// E1001 (--input_shape names an unknown input or gives a bad shape), E2002 (a layer type with no
/// converter, naming the layer and its type; the message carries CANN's E11009 too), E10055 (a
/// parameter value asc-tools does not convert).
ASC_API Result<ir::Graph> importCaffe(const std::string& prototxt, const std::string& caffemodel,
                                      const CaffeImportOptions& opts = {});

/// atc --mode=3 for a Caffe model: per layer, whether asc-tools converts its type (cause 1
/// TYPE_UNSUPPORTED, 9 NAME_REPEATED; cause 2 PARAM_INVALID when `caffemodel` is given and a full
/// import fails on that layer). E13001/E13018 when the prototxt cannot be read.
ASC_API Result<PrecheckReport> precheckCaffe(const std::string& prototxt,
                                             const std::string& caffemodel,
                                             const CaffeImportOptions& opts = {});

/// A Caffe layer type asc-tools converts, as declared once in caffe_layers.def: the IR ops it may
/// write, and its row of docs/caffe.md (`shown` ops, `notes`).
struct CaffeLayerInfo {
  std::string type;
  std::vector<std::string> ops;
  std::string shown, notes;
};
/// Every Caffe layer type the importer converts, in the order of caffe_layers.def.
ASC_API const std::vector<CaffeLayerInfo>& caffeLayers();

/// atc --mode=1 --framework=0: the prototxt as JSON (protobuf's JSON form of caffe.NetParameter).
/// E13001/E13018 when it cannot be read.
ASC_API Result<std::string> caffePrototxtToJson(const std::string& prototxt);

}  // namespace asc::frontend
