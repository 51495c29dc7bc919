// dtype.cpp: element-type tables. ONNX numbers: TensorProto.DataType; GE numbers: ge_ir.proto.
#include "asc/ir/dtype.h"

#include <fmt/format.h>

namespace asc::ir {
namespace {
struct Info {
  DType t;
  size_t size;
  const char* name;
  int onnx;
  int ge;
  const char* ge_name;
  const char* atc_name;
};
const Info kInfo[] = {
    {DType::Undefined, 0, "undefined", 0, 0, "DT_UNDEFINED", ""},
    {DType::F32, 4, "float32", 1, 1, "DT_FLOAT", "FP32"},
    {DType::F16, 2, "float16", 10, 2, "DT_FLOAT16", "FP16"},
    {DType::BF16, 2, "bfloat16", 16, 27, "DT_BF16", "BF16"},
    {DType::F64, 8, "float64", 11, 12, "DT_DOUBLE", "DOUBLE"},
    {DType::I8, 1, "int8", 3, 3, "DT_INT8", "INT8"},
    {DType::U8, 1, "uint8", 2, 4, "DT_UINT8", "UINT8"},
    {DType::I16, 2, "int16", 5, 5, "DT_INT16", "INT16"},
    {DType::U16, 2, "uint16", 4, 6, "DT_UINT16", "UINT16"},
    {DType::I32, 4, "int32", 6, 7, "DT_INT32", "INT32"},
    {DType::U32, 4, "uint32", 12, 9, "DT_UINT32", "UINT32"},
    {DType::I64, 8, "int64", 7, 8, "DT_INT64", "INT64"},
    {DType::U64, 8, "uint64", 13, 10, "DT_UINT64", "UINT64"},
    {DType::Bool, 1, "bool", 9, 11, "DT_BOOL", "BOOL"},
    // GE has DT_INT4 (28), DT_FLOAT8_E5M2 (34) and DT_FLOAT8_E4M3FN (35); uint4 and the FNUZ
    // formats have no GE number, so asc-tools' OMs use numbers of their own from 1001
    // (docs/om-format.md). An OM holds int4 one element per byte, as the runtime does.
    {DType::I4, 1, "int4", 22, 28, "DT_INT4", ""},
    {DType::U4, 1, "uint4", 21, 1001, "DT_UINT4", ""},
    {DType::F8E4M3FN, 1, "float8_e4m3fn", 17, 35, "DT_FLOAT8_E4M3FN", ""},
    {DType::F8E4M3FNUZ, 1, "float8_e4m3fnuz", 18, 1002, "DT_FLOAT8_E4M3FNUZ", ""},
    {DType::F8E5M2, 1, "float8_e5m2", 19, 34, "DT_FLOAT8_E5M2", ""},
    {DType::F8E5M2FNUZ, 1, "float8_e5m2fnuz", 20, 1003, "DT_FLOAT8_E5M2FNUZ", ""},
    // No ONNX or OM number (0): nothing reads them from a model file.
    {DType::C64, 8, "complex64", 0, 0, "DT_COMPLEX64", ""},
    {DType::C128, 16, "complex128", 0, 0, "DT_COMPLEX128", ""},
};
const Info& info(DType t) {
  for (const auto& i : kInfo)
    if (i.t == t) return i;
  return kInfo[0];
}
}  // namespace

size_t dtypeSize(DType t) { return info(t).size; }
const char* dtypeName(DType t) { return info(t).name; }
int dtypeToOnnx(DType t) { return info(t).onnx; }
int dtypeToGe(DType t) { return info(t).ge; }
const char* dtypeGeName(DType t) { return info(t).ge_name; }
DType dtypeFromOnnx(int v) {
  for (const auto& i : kInfo)
    if (i.onnx == v) return i.t;
  return DType::Undefined;
}
DType dtypeFromGe(int v) {
  for (const auto& i : kInfo)
    if (i.ge == v) return i.t;
  return DType::Undefined;
}
DType dtypeFromAtcName(const std::string& n) {
  for (const auto& i : kInfo)
    if (n == i.atc_name && *i.atc_name) return i.t;
  return DType::Undefined;
}
bool isFloat(DType t) {
  return t == DType::F32 || t == DType::F16 || t == DType::BF16 || t == DType::F64;
}

bool isInteger(DType t) { return t >= DType::I8 && t <= DType::U64; }

bool isFloat8(DType t) { return t >= DType::F8E4M3FN && t <= DType::F8E5M2FNUZ; }

bool isInt4(DType t) { return t == DType::I4 || t == DType::U4; }

Float8Kind float8Kind(DType t) {
  switch (t) {
    case DType::F8E4M3FNUZ:
      return Float8Kind::E4M3FNUZ;
    case DType::F8E5M2:
      return Float8Kind::E5M2;
    case DType::F8E5M2FNUZ:
      return Float8Kind::E5M2FNUZ;
    default:
      return Float8Kind::E4M3FN;
  }
}

int64_t numElements(const Shape& s) {
  for (auto d : s)
    if (d == 0) return 0;
  int64_t n = 1;
  // Saturates instead of overflowing (undefined) on a shape no limit check has seen yet.
  for (auto d : s) {
    int64_t m;
    if (__builtin_mul_overflow(n, d, &m)) return ((n < 0) != (d < 0)) ? INT64_MIN : INT64_MAX;
    n = m;
  }
  return n;
}

namespace {
// The bound `s` breaks ("" when none), and its byte size when it breaks none.
std::string checkLimits(const Shape& s, DType t, uint64_t* bytes) {
  if (s.size() > kMaxRank)
    return fmt::format("rank {} is over the limit of {} dims", s.size(), kMaxRank);
  uint64_t n = 1;
  bool zero = false;
  for (auto d : s) {
    if (d < 0) return fmt::format("shape [{}] has a negative dim", shapeToString(s));
    zero |= d == 0;
  }
  if (!zero)  // a zero dim makes the tensor empty, whatever the other dims
    for (auto d : s)
      if (__builtin_mul_overflow(n, static_cast<uint64_t>(d), &n) || n > kMaxElements)
        return fmt::format("shape [{}] is larger than the limit of 2^40 elements",
                           shapeToString(s));
  if (zero) n = 0;
  uint64_t b;
  if (__builtin_mul_overflow(n, static_cast<uint64_t>(dtypeSize(t)), &b) || b > kMaxTensorBytes)
    return fmt::format("shape [{}] of {} is larger than the limit of 2^40 bytes", shapeToString(s),
                       dtypeName(t));
  *bytes = b;
  return "";
}
}  // namespace

bool checkedByteSize(const Shape& s, DType t, uint64_t* bytes) {
  uint64_t b = 0;
  if (!checkLimits(s, t, &b).empty()) return false;
  *bytes = b;
  return true;
}

std::string shapeLimitReason(const Shape& s, DType t) {
  uint64_t b = 0;
  return checkLimits(s, t, &b);
}

std::string shapeToString(const Shape& s) { return fmt::format("{}", fmt::join(s, ",")); }

}  // namespace asc::ir
