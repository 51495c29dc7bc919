// single_op_detail.h: what single_op.cpp (file names, graphs, matching) and single_op_json.cpp
// (the --singleop JSON, read and written) share: GE's dtype and format names with AscendCL's
// numbers, and the text of dtypes, shapes and attributes.
#pragma once

#include <string>

#include "asc/compiler/single_op.h"

namespace asc::singleop::detail {

struct DtypeName {
  const char* name;  // lower case, as the file may spell it
  ir::DType dtype;
  int acl;  // AscendCL's (and GE's) number
};
// The first spelling of each dtype is the one toJson writes.
inline constexpr DtypeName kDtypes[] = {
    {"float", ir::DType::F32, 0},   {"float32", ir::DType::F32, 0},
    {"float16", ir::DType::F16, 1}, {"half", ir::DType::F16, 1},
    {"fp16", ir::DType::F16, 1},    {"int8", ir::DType::I8, 2},
    {"int32", ir::DType::I32, 3},   {"uint8", ir::DType::U8, 4},
    {"int16", ir::DType::I16, 6},   {"uint16", ir::DType::U16, 7},
    {"uint32", ir::DType::U32, 8},  {"int64", ir::DType::I64, 9},
    {"uint64", ir::DType::U64, 10}, {"double", ir::DType::F64, 11},
    {"bool", ir::DType::Bool, 12},  {"bfloat16", ir::DType::BF16, 27},
    {"bf16", ir::DType::BF16, 27},
};

struct FormatName {
  const char* name;
  int acl;
  bool plain;  // row-major data with the given dims: what the CPU runtime takes
};
inline constexpr FormatName kFormats[] = {
    {"NCHW", 0, true},     {"NHWC", 1, true},       {"ND", 2, true},
    {"NC1HWC0", 3, false}, {"FRACTAL_Z", 4, false}, {"NC1HWC0_C04", 12, false},
    {"HWCN", 16, true},    {"NDHWC", 27, true},     {"FRACTAL_NZ", 29, false},
    {"NCDHW", 30, true},   {"NDC1HWC0", 32, false}, {"FRACTAL_Z_3D", 33, false},
    {"NC", 35, true},      {"NCL", 47, true},
};

std::string lower(std::string s);
std::string upper(std::string s);
/// The dtype's first spelling in kDtypes ("float", "float16", ...).
const char* dtypeText(ir::DType t);
/// "[2,3]".
std::string shapeText(const ir::Shape& s);
/// A JSON string literal.
std::string quoted(const std::string& v);
/// {"name": ..., "type": ..., "value": ...}, as the file spells an attribute.
std::string attrJson(const std::string& name, const ir::AttrValue& v);

}  // namespace asc::singleop::detail
