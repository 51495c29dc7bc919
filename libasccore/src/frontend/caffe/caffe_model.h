// caffe_model.h: reading the two files of a Caffe model into protobuf messages. The prototxt is
// protobuf text (errors with line and column), the caffemodel binary; the old V1 `layers` form is
// rewritten into the current `layer` form (its parameter messages are the same types), so the
// converter sees one form. Private to the Caffe frontend.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "asc/support/status.h"
#include "caffe.pb.h"

namespace asc::frontend::caffe_import {

/// Parses prototxt text: E13018 "line L, column C: ..." when it does not parse.
Result<caffe::NetParameter> parsePrototxt(const std::string& text, const std::string& source);
/// Reads and parses a prototxt file (E13001 when it cannot be read).
Result<caffe::NetParameter> readPrototxt(const std::string& path);
/// Reads a binary caffemodel (E13001, E13005).
Result<caffe::NetParameter> readCaffemodel(const std::string& path);

/// The current-form type name of a V1 layer type ("Convolution"), or "" for NONE.
std::string v1TypeName(caffe::V1LayerParameter::LayerType t);
/// Moves V1 `layers` into `layer` (a net never mixes the two; if it does, V1 comes first).
void upgradeV1(caffe::NetParameter& net);
/// Whether a layer runs in the TEST phase (its include/exclude rules).
bool inTestPhase(const caffe::LayerParameter& l);

}  // namespace asc::frontend::caffe_import
