// op_def_registry.h: the host side of an Ascend C custom operator, in CANN's spellings, so an
// op_host/<op>.cpp written for CANN reads the same here: the prototype (ops::OpDef with Input,
// Output, Attr, SetInferShape, SetInferDataType, AICore().SetTiling), shape and dtype inference
// (gert::InferShapeContext, gert::InferDataTypeContext) and tiling (gert::TilingContext, whose
// GetPlatformInfo() feeds platform_ascendc::PlatformAscendC, tiling/platform/platform_ascendc.h),
// and OP_ADD(Op) to register it. The subset is what vector operators use; what is missing fails to
// compile rather than doing something else.
//
// libasccore turns every OP_ADD of a plugin into an asc::ops::OpDef (asc/ophost/ophost.h): the
// inference functions run in atc, the tiling function and the Ascend C kernel (through the CPU
// layer, asc/ascendc/launch.h) run in msame.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iostream>  // op_host code prints with std::cout, reaching it through this header in CANN
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "asc/asc.h"
#include "graph/ge_error_codes.h"
#include "register/abi_string.h"
#include "tiling/platform/platform_ascendc.h"

namespace ge {

/// CANN's ge::DataType values (graph/types.h).
enum DataType {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_STRING = 13,
  DT_DUAL_SUB_INT8 = 14,
  DT_DUAL_SUB_UINT8 = 15,
  DT_COMPLEX64 = 16,
  DT_COMPLEX128 = 17,
  DT_QINT8 = 18,
  DT_QINT16 = 19,
  DT_QINT32 = 20,
  DT_QUINT8 = 21,
  DT_QUINT16 = 22,
  DT_RESOURCE = 23,
  DT_STRING_REF = 24,
  DT_DUAL = 25,
  DT_VARIANT = 26,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
  DT_INT4 = 29,
  DT_UINT1 = 30,
  DT_INT2 = 31,
  DT_UINT2 = 32,
  DT_COMPLEX32 = 33,
  DT_HIFLOAT8 = 34,
  DT_FLOAT8_E5M2 = 35,
  DT_FLOAT8_E4M3FN = 36,
  DT_FLOAT8_E8M0 = 37,
  DT_FLOAT6_E3M2 = 38,
  DT_FLOAT6_E2M3 = 39,
  DT_FLOAT4_E2M1 = 40,
  DT_FLOAT4_E1M2 = 41,
  DT_MAX,
};

/// CANN's ge::Format values for the formats a custom vector operator declares.
enum Format {
  FORMAT_NCHW = 0,
  FORMAT_NHWC = 1,
  FORMAT_ND = 2,
  FORMAT_NC1HWC0 = 3,
};

/// Bytes of one element (0 for DT_UNDEFINED).
inline int GetSizeByDataType(DataType t) {
  switch (t) {
    case DT_INT8:
    case DT_UINT8:
    case DT_BOOL:
      return 1;
    case DT_FLOAT16:
    case DT_BF16:
    case DT_INT16:
    case DT_UINT16:
      return 2;
    case DT_FLOAT:
    case DT_INT32:
    case DT_UINT32:
      return 4;
    case DT_INT64:
    case DT_UINT64:
    case DT_DOUBLE:
    case DT_COMPLEX64:
      return 8;
    case DT_COMPLEX128:
      return 16;
    case DT_COMPLEX32:
      return 4;
    case DT_QINT8:
    case DT_QUINT8:
    case DT_HIFLOAT8:
    case DT_FLOAT8_E5M2:
    case DT_FLOAT8_E4M3FN:
    case DT_FLOAT8_E8M0:
      return 1;
    case DT_QINT16:
    case DT_QUINT16:
      return 2;
    case DT_QINT32:
      return 4;
    default:  // strings, resources, and the sub-byte types (no whole bytes per element)
      return 0;
  }
}

}  // namespace ge

namespace gert {

/// A tensor shape of up to kMaxDimNum dimensions.
class Shape {
 public:
  static constexpr size_t kMaxDimNum = 8;
  Shape() = default;
  Shape(std::initializer_list<int64_t> dims) {
    for (int64_t d : dims) AppendDim(d);
  }
  size_t GetDimNum() const { return num_; }
  int64_t GetDim(size_t i) const { return i < num_ ? dims_[i] : 0; }
  void SetDimNum(size_t n) { num_ = n < kMaxDimNum ? n : kMaxDimNum; }
  void SetDim(size_t i, int64_t d) {
    if (i < num_) dims_[i] = d;
  }
  Shape& AppendDim(int64_t d) {
    if (num_ < kMaxDimNum) dims_[num_++] = d;
    return *this;
  }
  /// The number of elements (1 for a scalar).
  int64_t GetShapeSize() const {
    int64_t n = 1;
    for (size_t i = 0; i < num_; ++i) n *= dims_[i];
    return n;
  }
  bool IsScalar() const { return num_ == 0; }
  /// Dimension i (unchecked, as CANN's).
  const int64_t& operator[](size_t i) const { return dims_[i]; }
  int64_t& operator[](size_t i) { return dims_[i]; }
  bool operator==(const Shape& o) const {
    if (num_ != o.num_) return false;
    for (size_t i = 0; i < num_; ++i)
      if (dims_[i] != o.dims_[i]) return false;
    return true;
  }
  bool operator!=(const Shape& o) const { return !(*this == o); }

 private:
  int64_t dims_[kMaxDimNum] = {};
  size_t num_ = 0;
};

/// The shape as the model gives it (origin) and as it is stored (storage); equal here: custom
/// operators take ND tensors.
class StorageShape {
 public:
  StorageShape() = default;
  explicit StorageShape(const Shape& s) : origin_(s), storage_(s) {}
  const Shape& GetOriginShape() const { return origin_; }
  const Shape& GetStorageShape() const { return storage_; }
  Shape& MutableOriginShape() { return origin_; }
  Shape& MutableStorageShape() { return storage_; }

 private:
  Shape origin_, storage_;
};

class CompileTimeTensorDesc {
 public:
  CompileTimeTensorDesc() = default;
  CompileTimeTensorDesc(ge::DataType t, ge::Format f) : dtype_(t), format_(f) {}
  ge::DataType GetDataType() const { return dtype_; }
  ge::Format GetOriginFormat() const { return format_; }
  ge::Format GetStorageFormat() const { return format_; }

 private:
  ge::DataType dtype_ = ge::DT_UNDEFINED;
  ge::Format format_ = ge::FORMAT_ND;
};

/// A list attribute as CANN's RuntimeAttrs::GetListInt/GetListFloat return it: GetSize() and
/// GetData() (also usable as the std::vector it is).
template <typename T>
class TypedContinuousVector : public std::vector<T> {
 public:
  TypedContinuousVector() = default;
  TypedContinuousVector(const std::vector<T>& v) : std::vector<T>(v) {}  // NOLINT: a list value
  size_t GetSize() const { return this->size(); }
  const T* GetData() const { return this->data(); }
};

/// The operator's attributes, by their index in the prototype's Attr() order. A getter returns
/// nullptr for an index out of range or an attribute of another type.
class ASC_API RuntimeAttrs {
 public:
  struct Value {
    enum Kind { Int, Float, Bool, Str, ListInt, ListFloat } kind = Int;
    int64_t i = 0;
    float f = 0;
    bool b = false;
    asc::AbiString s;
    TypedContinuousVector<int64_t> ints;
    TypedContinuousVector<float> floats;
  };
  size_t GetAttrNum() const { return values_.size(); }
  const int64_t* GetInt(size_t i) const { return is(i, Value::Int) ? &values_[i].i : nullptr; }
  const float* GetFloat(size_t i) const { return is(i, Value::Float) ? &values_[i].f : nullptr; }
  const bool* GetBool(size_t i) const { return is(i, Value::Bool) ? &values_[i].b : nullptr; }
  const char* GetStr(size_t i) const { return is(i, Value::Str) ? values_[i].s.c_str() : nullptr; }
  const TypedContinuousVector<int64_t>* GetListInt(size_t i) const {
    return is(i, Value::ListInt) ? &values_[i].ints : nullptr;
  }
  const TypedContinuousVector<float>* GetListFloat(size_t i) const {
    return is(i, Value::ListFloat) ? &values_[i].floats : nullptr;
  }
  /// CANN's typed access: int64_t (Int; or another integer type over its bytes), float (Float),
  /// bool (Bool) or char (Str, the string's characters); nullptr for another type or an index out
  /// of range.
  template <typename T>
  const T* GetAttrPointer(size_t i) const {
    if (std::is_same<T, int64_t>::value)
      return is(i, Value::Int) ? reinterpret_cast<const T*>(&values_[i].i) : nullptr;
    if (std::is_same<T, float>::value)
      return is(i, Value::Float) ? reinterpret_cast<const T*>(&values_[i].f) : nullptr;
    if (std::is_same<T, bool>::value)
      return is(i, Value::Bool) ? reinterpret_cast<const T*>(&values_[i].b) : nullptr;
    if (std::is_same<T, char>::value)
      return is(i, Value::Str) ? reinterpret_cast<const T*>(values_[i].s.c_str()) : nullptr;
    // Another integer type over an Int attribute: CANN keeps an Int as 8 bytes and hands out a
    // pointer to them whatever T is asked for, and projects read int attributes as uint32_t; the
    // low bytes (little-endian) are the value when it fits T.
    if (std::is_integral<T>::value && sizeof(T) <= sizeof(int64_t))
      return is(i, Value::Int) ? reinterpret_cast<const T*>(&values_[i].i) : nullptr;
    return nullptr;
  }
  std::vector<Value>& values() { return values_; }

 private:
  bool is(size_t i, Value::Kind k) const { return i < values_.size() && values_[i].kind == k; }
  std::vector<Value> values_;
};

/// The buffer the tiling function fills (TilingData::SaveToBuffer) and the kernel reads.
class TilingData {
 public:
  explicit TilingData(size_t capacity) : data_(capacity, 0) {}
  void* GetData() { return data_.data(); }
  const void* GetData() const { return data_.data(); }
  size_t GetCapacity() const { return data_.size(); }
  size_t GetDataSize() const { return size_; }
  void SetDataSize(size_t n) { size_ = n <= data_.size() ? n : data_.size(); }

 private:
  std::vector<uint8_t> data_;
  size_t size_ = 0;
};

/// What InferShape, InferDataType and Tiling functions share.
class ASC_API ExtendedKernelContext {
 public:
  const char* GetNodeName() const { return node_name_.c_str(); }
  const char* GetNodeType() const { return node_type_.c_str(); }
  size_t GetComputeNodeInputNum() const { return inputs_.size(); }
  size_t GetComputeNodeOutputNum() const { return outputs_.size(); }
  const RuntimeAttrs* GetAttrs() const { return &attrs_; }

  // Filled by libasccore before the call. inputs_ and input_descs_ hold every input instance:
  // a DYNAMIC input (a tensor list) contributes one per tensor, in order.
  asc::AbiString node_name_, node_type_;
  std::vector<StorageShape> inputs_, outputs_;
  std::vector<CompileTimeTensorDesc> input_descs_, output_descs_;
  RuntimeAttrs attrs_;
  // Per prototype input, its first instance and how many it has (empty: one each, in order).
  std::vector<std::pair<uint32_t, uint32_t>> ir_inputs_;

  /// The instance of prototype input `ir`, tensor `relative` of its list; -1 when there is none.
  int64_t ascInstance(size_t ir, size_t relative) const {
    if (ir_inputs_.empty()) return relative == 0 && ir < inputs_.size() ? int64_t(ir) : -1;
    if (ir >= ir_inputs_.size() || relative >= ir_inputs_[ir].second) return -1;
    return int64_t(ir_inputs_[ir].first + relative);
  }
};

class ASC_API InferShapeContext : public ExtendedKernelContext {
 public:
  const Shape* GetInputShape(size_t i) const {
    return i < inputs_.size() ? &inputs_[i].GetOriginShape() : nullptr;
  }
  /// Tensor `relative` of DYNAMIC input `ir` (nullptr when there is none).
  const Shape* GetDynamicInputShape(size_t ir, size_t relative) const {
    const int64_t k = ascInstance(ir, relative);
    return k < 0 ? nullptr : &inputs_[size_t(k)].GetOriginShape();
  }
  Shape* GetOutputShape(size_t i) {
    return i < outputs_.size() ? &outputs_[i].MutableOriginShape() : nullptr;
  }
};

class ASC_API InferDataTypeContext : public ExtendedKernelContext {
 public:
  ge::DataType GetInputDataType(size_t i) const {
    return i < input_descs_.size() ? input_descs_[i].GetDataType() : ge::DT_UNDEFINED;
  }
  ge::DataType GetDynamicInputDataType(size_t ir, size_t relative) const {
    const int64_t k = ascInstance(ir, relative);
    return k < 0 || size_t(k) >= input_descs_.size() ? ge::DT_UNDEFINED
                                                     : input_descs_[size_t(k)].GetDataType();
  }
  ge::DataType GetOutputDataType(size_t i) const {
    return i < output_descs_.size() ? output_descs_[i].GetDataType() : ge::DT_UNDEFINED;
  }
  ge::graphStatus SetOutputDataType(size_t i, ge::DataType t) {
    if (i >= output_descs_.size()) return ge::GRAPH_FAILED;
    output_descs_[i] = CompileTimeTensorDesc(t, output_descs_[i].GetOriginFormat());
    return ge::GRAPH_SUCCESS;
  }
};

/// An input as the tiling function sees it (TilingContext::GetInputTensor): its shape, type and
/// format, and its data where the caller has it (the aclnn API's device memory; nullptr while a
/// model is compiled, before any data exists).
class Tensor {
 public:
  Tensor() = default;
  Tensor(const StorageShape& shape, ge::DataType dtype, const void* data)
      : shape_(shape), dtype_(dtype), data_(data) {}
  const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
  const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
  int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
  ge::DataType GetDataType() const { return dtype_; }
  ge::Format GetOriginFormat() const { return ge::FORMAT_ND; }
  ge::Format GetStorageFormat() const { return ge::FORMAT_ND; }
  const void* GetAddr() const { return data_; }
  template <typename T>
  const T* GetData() const {
    return static_cast<const T*>(data_);
  }

 private:
  StorageShape shape_;
  ge::DataType dtype_ = ge::DT_UNDEFINED;
  const void* data_ = nullptr;
};

class ASC_API TilingContext : public ExtendedKernelContext {
 public:
  explicit TilingContext(size_t tiling_capacity = 64 * 1024) : tiling_(tiling_capacity) {}
  const StorageShape* GetInputShape(size_t i) const {
    return i < inputs_.size() ? &inputs_[i] : nullptr;
  }
  const StorageShape* GetOutputShape(size_t i) const {
    return i < outputs_.size() ? &outputs_[i] : nullptr;
  }
  /// Input i's shape, type and (where known) data; nullptr when there is no input i.
  const Tensor* GetInputTensor(size_t i) const {
    return i < input_tensors_.size() ? &input_tensors_[i] : nullptr;
  }
  /// An optional input's shape; nullptr when it was left out (or there is no input i).
  const StorageShape* GetOptionalInputShape(size_t i) const {
    return i < input_tensors_.size() && input_tensors_[i].GetDataType() != ge::DT_UNDEFINED
               ? &inputs_[i]
               : nullptr;
  }
  const CompileTimeTensorDesc* GetInputDesc(size_t i) const {
    return i < input_descs_.size() ? &input_descs_[i] : nullptr;
  }
  const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
    return i < output_descs_.size() ? &output_descs_[i] : nullptr;
  }
  /// Tensor `relative` of DYNAMIC input `ir`: its shape, description and tensor (nullptr when
  /// there is none). GetInputShape(i) counts every instance, as CANN's does.
  const StorageShape* GetDynamicInputShape(size_t ir, size_t relative) const {
    const int64_t k = ascInstance(ir, relative);
    return k < 0 ? nullptr : &inputs_[size_t(k)];
  }
  const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t relative) const {
    const int64_t k = ascInstance(ir, relative);
    return k < 0 || size_t(k) >= input_descs_.size() ? nullptr : &input_descs_[size_t(k)];
  }
  const Tensor* GetDynamicInputTensor(size_t ir, size_t relative) const {
    const int64_t k = ascInstance(ir, relative);
    return k < 0 || size_t(k) >= input_tensors_.size() ? nullptr : &input_tensors_[size_t(k)];
  }
  ge::graphStatus SetBlockDim(uint32_t n) {
    block_dim_ = n;
    return ge::GRAPH_SUCCESS;
  }
  uint32_t GetBlockDim() const { return block_dim_; }
  ge::graphStatus SetTilingKey(uint64_t k) {
    tiling_key_ = k;
    return ge::GRAPH_SUCCESS;
  }
  uint64_t GetTilingKey() const { return tiling_key_; }
  TilingData* GetRawTilingData() { return &tiling_; }
  /// The user workspace sizes (bytes), `num` of them; the kernel receives one buffer holding all.
  size_t* GetWorkspaceSizes(size_t num) {
    if (workspaces_.size() < num) workspaces_.resize(num, 0);
    return workspaces_.data();
  }
  const std::vector<size_t>& workspaceSizes() const { return workspaces_; }
  /// The chip the tiling is for, to construct a platform_ascendc::PlatformAscendC from.
  fe::PlatFormInfos* GetPlatformInfo() const {
    return const_cast<fe::PlatFormInfos*>(&platform_info_);
  }

  // Filled by libasccore before the call: the chip's --soc_version spelling (a string that
  // outlives the call); Ascend910B1 (asc::ascendc::kDefaultSoc) unless set.
  fe::PlatFormInfos platform_info_;
  // Filled by libasccore: the inputs (DT_UNDEFINED for an optional one left out).
  std::vector<Tensor> input_tensors_;

 private:
  TilingData tiling_;
  uint32_t block_dim_ = 1;
  uint64_t tiling_key_ = 0;
  std::vector<size_t> workspaces_;
};

}  // namespace gert

namespace gert {
/// The function types OpDef's setters take, under CANN's names. Not in namespace ops: op_host
/// code declares its own InferShapeFunc, TilingFunc, ... and names them unqualified inside ops.
struct OpImplRegisterV2 {
  using InferShapeKernelFunc = UINT32 (*)(InferShapeContext*);
  using InferDataTypeKernelFunc = UINT32 (*)(InferDataTypeContext*);
  using TilingKernelFunc = UINT32 (*)(TilingContext*);
};
}  // namespace gert

namespace ops {

/// Input/output and attribute kinds, spelled as CANN spells them (unqualified in op_host code).
enum Option { OPTIONAL = 0, REQUIRED = 1, DYNAMIC = 2 };

class ASC_API OpParamDef {
 public:
  explicit OpParamDef(const char* name) : name_(name) {}
  OpParamDef& ParamType(Option o) {
    param_type_ = o;
    return *this;
  }
  OpParamDef& DataType(std::vector<ge::DataType> types) {
    types_ = std::move(types);
    return *this;
  }
  OpParamDef& Format(std::vector<ge::Format> formats) {
    formats_ = std::move(formats);
    return *this;
  }
  OpParamDef& UnknownShapeFormat(std::vector<ge::Format> formats) { return Format(formats); }
  std::string name() const { return name_.str(); }
  Option paramType() const { return param_type_; }
  const std::vector<ge::DataType>& types() const { return types_; }
  const std::vector<ge::Format>& formats() const { return formats_; }

 private:
  asc::AbiString name_;
  Option param_type_ = REQUIRED;
  std::vector<ge::DataType> types_;
  std::vector<ge::Format> formats_;
};

class ASC_API OpAttrDef {
 public:
  using Value = gert::RuntimeAttrs::Value;
  explicit OpAttrDef(const char* name) : name_(name) {}
  OpAttrDef& AttrType(Option o) {
    required_ = o == REQUIRED;
    return *this;
  }
  OpAttrDef& Int(int64_t v = 0) {
    return set(Value::Int, [&](Value& x) { x.i = v; });
  }
  OpAttrDef& Float(float v = 0) {
    return set(Value::Float, [&](Value& x) { x.f = v; });
  }
  OpAttrDef& Bool(bool v = false) {
    return set(Value::Bool, [&](Value& x) { x.b = v; });
  }
  OpAttrDef& String(const char* v = "") {
    return set(Value::Str, [&](Value& x) { x.s = v; });
  }
  OpAttrDef& ListInt(std::vector<int64_t> v = {}) {
    return set(Value::ListInt, [&](Value& x) { x.ints = v; });
  }
  OpAttrDef& ListFloat(std::vector<float> v = {}) {
    return set(Value::ListFloat, [&](Value& x) { x.floats = v; });
  }
  std::string name() const { return name_.str(); }
  bool required() const { return required_; }
  /// The type, and the default when the attribute is optional.
  const Value& defaultValue() const { return value_; }

 private:
  template <typename F>
  OpAttrDef& set(Value::Kind k, F f) {
    value_ = Value();
    value_.kind = k;
    f(value_);
    return *this;
  }
  asc::AbiString name_;
  bool required_ = false;
  Value value_;
};

class ASC_API OpAICoreDef {
 public:
  OpAICoreDef& SetTiling(gert::OpImplRegisterV2::TilingKernelFunc f) {
    tiling_ = f;
    return *this;
  }
  /// The chips the operator is built for ("ascend910b", "ascend310p", ...).
  OpAICoreDef& AddConfig(const char* soc) {
    socs_.emplace_back(soc);
    return *this;
  }
  gert::OpImplRegisterV2::TilingKernelFunc tiling() const { return tiling_; }
  std::vector<std::string> socs() const {
    std::vector<std::string> v;
    for (const auto& s : socs_) v.push_back(s.str());
    return v;
  }

 private:
  gert::OpImplRegisterV2::TilingKernelFunc tiling_ = nullptr;
  std::vector<asc::AbiString> socs_;
};

/// An operator prototype: derive from it and declare everything in the constructor, as CANN
/// does, then OP_ADD(Type).
class ASC_API OpDef {
 public:
  explicit OpDef(const char* type) : type_(type) {}
  virtual ~OpDef() = default;
  OpParamDef& Input(const char* name) { return add(inputs_, name); }
  OpParamDef& Output(const char* name) { return add(outputs_, name); }
  OpAttrDef& Attr(const char* name) {
    attrs_.emplace_back(name);
    return attrs_.back();
  }
  OpDef& SetInferShape(gert::OpImplRegisterV2::InferShapeKernelFunc f) {
    infer_shape_ = f;
    return *this;
  }
  OpDef& SetInferDataType(gert::OpImplRegisterV2::InferDataTypeKernelFunc f) {
    infer_dtype_ = f;
    return *this;
  }
  OpAICoreDef& AICore() { return aicore_; }

  std::string type() const { return type_.str(); }
  const std::vector<OpParamDef>& inputs() const { return inputs_; }
  const std::vector<OpParamDef>& outputs() const { return outputs_; }
  const std::vector<OpAttrDef>& attrs() const { return attrs_; }
  gert::OpImplRegisterV2::InferShapeKernelFunc inferShape() const { return infer_shape_; }
  gert::OpImplRegisterV2::InferDataTypeKernelFunc inferDataType() const { return infer_dtype_; }
  const OpAICoreDef& aicore() const { return aicore_; }

 private:
  static OpParamDef& add(std::vector<OpParamDef>& v, const char* name) {
    v.emplace_back(name);
    return v.back();
  }
  asc::AbiString type_;
  std::vector<OpParamDef> inputs_, outputs_;
  std::vector<OpAttrDef> attrs_;
  gert::OpImplRegisterV2::InferShapeKernelFunc infer_shape_ = nullptr;
  gert::OpImplRegisterV2::InferDataTypeKernelFunc infer_dtype_ = nullptr;
  OpAICoreDef aicore_;
};

/// Keeps a prototype until the plugin registers (asc::ophost::registerPlugin).
ASC_API void addPendingOpDef(std::unique_ptr<OpDef> def);

}  // namespace ops

/// Registers the prototype class `opType` (derived from ops::OpDef) of this plugin.
#define OP_ADD(opType)                                                          \
  static const int g_asc_op_add_##opType = [] {                                 \
    ::ops::addPendingOpDef(std::unique_ptr<::ops::OpDef>(new opType(#opType))); \
    return 0;                                                                   \
  }()
