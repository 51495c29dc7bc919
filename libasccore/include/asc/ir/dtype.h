// dtype.h: element types, shapes and their names in ONNX, GE (ge_ir.proto DataType) and text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/support/float8.h"

namespace asc::ir {

enum class DType : uint8_t {
  Undefined = 0,
  F32,
  F16,
  BF16,
  F64,
  I8,
  U8,
  I16,
  U16,
  I32,
  U32,
  I64,
  U64,
  Bool,
  // Narrow types (opsets 19 and 21): kept one element per byte. An int4/uint4 element is its
  // value in a byte (sign-extended, as ml_dtypes holds it); ONNX files pack two per byte and
  // the importer unpacks them. A float8 element is its code.
  I4,
  U4,
  F8E4M3FN,
  F8E4M3FNUZ,
  F8E5M2,
  F8E5M2FNUZ,
  // Complex numbers (real and imaginary parts side by side): only custom operators' kernels take
  // them (through AscendCL, aclnn and ophost); no ONNX import or built-in kernel makes them.
  C64,
  C128,
};

using Shape = std::vector<int64_t>;

/// Bytes per element (0 for Undefined).
ASC_API size_t dtypeSize(DType t);
/// "float32", "float16", "int64", ... (numpy spelling).
ASC_API const char* dtypeName(DType t);
/// ONNX TensorProto.DataType number -> DType (Undefined when not supported).
ASC_API DType dtypeFromOnnx(int onnx_type);
ASC_API int dtypeToOnnx(DType t);
/// ge.proto.DataType number (DT_FLOAT = 1, ...) <-> DType.
ASC_API DType dtypeFromGe(int ge_type);
ASC_API int dtypeToGe(DType t);
/// "DT_FLOAT", "DT_FLOAT16", ...
ASC_API const char* dtypeGeName(DType t);
/// Parses "FP32", "FP16", "INT8", ... as --output_type spells them.
ASC_API DType dtypeFromAtcName(const std::string& name);
/// float32, float16, bfloat16, float64: the types kernels compute in (not the float8 types).
ASC_API bool isFloat(DType t);
/// Signed or unsigned integer of 8 bits or more (not bool, not int4/uint4).
ASC_API bool isInteger(DType t);
/// One of the four float8 types.
ASC_API bool isFloat8(DType t);
/// int4 or uint4.
ASC_API bool isInt4(DType t);
/// A float8 or 4-bit type: only operators that convert (Cast, QuantizeLinear,
/// DequantizeLinear) or move elements (OpDef::nativeDtypes) take these.
inline bool isNarrow(DType t) { return isFloat8(t) || isInt4(t); }
/// The codec of a float8 type (E4M3FN for any other type).
ASC_API Float8Kind float8Kind(DType t);

/// Product of dims (1 for a scalar). Assumes all dims are >= 0.
ASC_API int64_t numElements(const Shape& s);
// Limits on what any file may describe (docs/reliability.md, "Limits"). Going over one is an
// error naming the tensor and the bound, never an abort.
/// The largest tensor asc-tools accepts anywhere (bytes): 2^40.
constexpr uint64_t kMaxTensorBytes = uint64_t(1) << 40;
/// The most elements a tensor may have: 2^40 (so that element counts fit int64 with room).
constexpr uint64_t kMaxElements = uint64_t(1) << 40;
/// The most dims a tensor may have (numpy's limit before 2.0; ONNX models use at most 8).
constexpr size_t kMaxRank = 32;
/// How deep subgraphs (If/Loop/Scan bodies) may nest in a model file: 30. The ONNX parser
/// enforces it as a protobuf nesting limit (three messages per level, plus the model's own);
/// asc-tools imports no subgraph yet, so a model with one is E2002 within that bound.
constexpr int kMaxSubgraphNesting = 30;
/// Byte size of a tensor of `s` and `t`, or false when a dim is negative, the rank exceeds
/// kMaxRank, the element count exceeds kMaxElements or the size overflows or exceeds
/// kMaxTensorBytes. Use on every shape read from a file before trusting it.
ASC_API bool checkedByteSize(const Shape& s, DType t, uint64_t* bytes);
/// Why checkedByteSize rejects `s` ("rank 40 is over the limit of 32 dims", ...); "" when it
/// does not.
ASC_API std::string shapeLimitReason(const Shape& s, DType t);
/// "1,3,224,224"
ASC_API std::string shapeToString(const Shape& s);

/// A C++ type carried as a value, for visitNumeric's callbacks (`typename decltype(tag)::type`).
template <typename T>
struct TypeTag {
  using type = T;
};

/// The one dtype switch of the kernels: calls `f(TypeTag<T>{})` with the C++ type of a numeric
/// dtype (float, double, the 8- to 64-bit integers) and returns its result, or `other()` for
/// any other dtype (fp16, bf16, bool, int4, float8 are stored, not computed, in these types).
template <typename F, typename G>
decltype(auto) visitNumeric(DType t, F&& f, G&& other) {
  switch (t) {
    case DType::F32:
      return f(TypeTag<float>{});
    case DType::F64:
      return f(TypeTag<double>{});
    case DType::I8:
      return f(TypeTag<int8_t>{});
    case DType::U8:
      return f(TypeTag<uint8_t>{});
    case DType::I16:
      return f(TypeTag<int16_t>{});
    case DType::U16:
      return f(TypeTag<uint16_t>{});
    case DType::I32:
      return f(TypeTag<int32_t>{});
    case DType::U32:
      return f(TypeTag<uint32_t>{});
    case DType::I64:
      return f(TypeTag<int64_t>{});
    case DType::U64:
      return f(TypeTag<uint64_t>{});
    default:
      return other();
  }
}

}  // namespace asc::ir
