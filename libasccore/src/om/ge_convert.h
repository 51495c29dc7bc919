// ge_convert.h: conversions between asc::ir and the ge.proto messages of MODEL_DEF.
#pragma once

#include "asc/ir/graph.h"
#include "asc/ops/op_def.h"
#include "asc/support/status.h"
#include "ge_ir.pb.h"

namespace asc::om {

/// Attribute names starting with '_' are GE-internal (not op parameters).
constexpr const char* kOriginalNamesAttr = "_datadump_original_op_names";

/// A value's descriptor. NC1HWC0 values are recorded as the chip holds them: a 5-D shape
/// [N, C1, H, W, C0] with origin_format/origin_shape attributes giving the logical NCHW.
/// GE's dims for a tensor of unknown rank.
constexpr int64_t kUnknownRank = -2;
/// A value with no dtype or with -1 dims (a dynamic graph's) gets GE's unknown dims and size 0.
void fillTensorDesc(const ir::Value& v, ge::proto::TensorDescriptor* td, int c0 = 16);
/// The logical shape a descriptor records (origin_shape for NC1HWC0).
std::vector<int64_t> logicalShape(const ge::proto::TensorDescriptor& td);
/// The tensor's own format: origin_format for a weight stored only packed, else the layout
/// ("ND" when empty).
std::string logicalFormat(const ge::proto::TensorDescriptor& td);
void attrToGe(const ir::AttrValue& a, ge::proto::AttrDef* out);
/// nullopt-like: returns false when the AttrDef holds a kind the IR has no form for.
/// One attribute of a CANN spelling (ops::CannSpelling) as GE's AttrDef.
void cannAttrToGe(const ops::CannAttr& a, ge::proto::AttrDef* out);
bool attrFromGe(const ge::proto::AttrDef& a, ir::AttrValue* out);

ge::proto::AttrDef makeIntAttr(int64_t v);
ge::proto::AttrDef makeStringAttr(const std::string& v);
ge::proto::AttrDef makeIntListAttr(const std::vector<int64_t>& v);
ge::proto::AttrDef makeStringListAttr(const std::vector<std::string>& v);

}  // namespace asc::om
