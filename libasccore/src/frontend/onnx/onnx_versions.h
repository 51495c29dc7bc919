// onnx_versions.h: the default-domain ONNX operator versions introduced after opset 18 (opsets
// 19-24, from ONNX's operator changelog; docs/opsets.md) and what asc-tools does with each. A
// model at opset N uses, for each op, the op's latest version at or below N; versions up to 18
// are what the op definitions read, and a later one is read only when this table says how:
// accepted as is (only types were added, or the op's own checks refuse what is new), accepted
// when named attributes keep their defaults, mapped (GridSample-20's renamed modes), or refused
// naming the version and why.
#pragma once

#include <string>

#include "asc/support/status.h"

namespace onnx {
class NodeProto;
}
namespace asc::ir {
class Attrs;
}

namespace asc::frontend {

/// E10055 when node `np` (op `op_type`, named `name`) is a version after 18 that asc-tools does
/// not read at opset `opset`, or uses an attribute that version added with a value other than
/// its default. OK otherwise.
Status checkLaterOnnxVersion(const onnx::NodeProto& np, const std::string& op_type,
                             const std::string& name, int opset);
/// Rewrites the attributes of a node imported from a later version into the form the op
/// definition reads (GridSample-20's mode names).
void mapLaterOnnxAttrs(const std::string& op_type, int opset, ir::Attrs* attrs);

/// The op's version in force at `opset` among those after 18 (0 when none is).
int laterOnnxVersion(const std::string& op_type, int opset);

}  // namespace asc::frontend
