// atc_report.h: atc's modes that read a model and write what they find: 1 (a model to JSON),
// 3 (the pre-check report) and 6 (an OM's summary); and the option helpers atc.cpp's model
// build shares with them.
#pragma once

#include <map>
#include <ostream>
#include <string>

#include "asc/support/status.h"
#include "atc_options.h"

namespace asc::atc {

/// --mode=3: which nodes asc-tools can take, as the real pre-check report (JSON).
Status precheck(const Options& o, std::ostream& out);
/// --mode=1: an OM (or with --framework, a Caffe prototxt or TensorFlow GraphDef) as JSON.
Status modelToJson(const Options& o);
/// --mode=6: an OM's summary, as the real atc prints it, and asc-tools' own lines.
Status displayModel(const Options& o, std::ostream& out);

/// E10004-style error when a required option has no value.
Status requireValue(const std::string& value, const char* name);
/// --op_name_map's file: ONNX op type -> operator, a line each.
Result<std::map<std::string, std::string>> readOpNameMap(const std::string& path);
/// --input_format for a TensorFlow GraphDef: NHWC by default, as the real atc.
Result<std::string> tensorFlowInputFormat(const std::string& given);

}  // namespace asc::atc
