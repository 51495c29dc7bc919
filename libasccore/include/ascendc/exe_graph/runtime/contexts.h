// exe_graph/runtime/contexts.h: the runtime side of CANN's op_impl registry that op_host code
// sees: gert::Shape, StorageShape, RuntimeAttrs, the InferShape, InferDataType and Tiling
// contexts (TilingContext's GetPlatformInfo() feeds platform_ascendc::PlatformAscendC), and the
// function types OpDef's setters take (gert::OpImplRegisterV2). The headers of CANN's names
// beside this one (infer_shape_context.h, tiling_context.h, ...) include it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iostream>  // op_host code prints with std::cout, reaching it through this header in CANN
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "asc/asc.h"
#include "graph/ge_error_codes.h"
#include "graph/types.h"
#include "register/abi_string.h"
#include "tiling/platform/platform_ascendc.h"

namespace asc::ascendc::detail {
ASC_API void warnOnce(const char* call, const char* message);  // asc/ascendc/kernel_context.h
}  // namespace asc::ascendc::detail

namespace gert {

/// A tensor shape of up to kMaxDimNum dimensions.
class Shape {
 public:
  static constexpr size_t kMaxDimNum = 25;  // CANN's (exe_graph/runtime/shape.h)
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

/// The operator's attributes, by their index in the prototype's Attr() order (nullptr for an
/// index out of range).
///
/// CANN's getters are not checked: each is GetAttrPointer<T>(index), a pointer to the
/// attribute's stored bytes whatever T is, and projects do read an attribute with another type's
/// getter (a float with GetBool, a list with GetFloat); on an NPU that reads the other type's
/// bytes. Here it reads the same bytes, laid out as CANN keeps them (a scalar's own bytes; a list
/// as ContinuousVector: capacity and size as 8 bytes each, then the elements; zeros after), and
/// warns once naming the attribute, the getter and the getter the attribute wants.
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
    asc::AbiString name;  // the prototype's name for it (for messages)
  };
  size_t GetAttrNum() const { return values_.size(); }
  const int64_t* GetInt(size_t i) const {
    return is(i, Value::Int) ? &values_[i].i : bytes<int64_t>(i, "GetInt");
  }
  const float* GetFloat(size_t i) const {
    return is(i, Value::Float) ? &values_[i].f : bytes<float>(i, "GetFloat");
  }
  const bool* GetBool(size_t i) const {
    return is(i, Value::Bool) ? &values_[i].b : bytes<bool>(i, "GetBool");
  }
  const char* GetStr(size_t i) const {
    return is(i, Value::Str) ? values_[i].s.c_str() : bytes<char>(i, "GetStr");
  }
  const TypedContinuousVector<int64_t>* GetListInt(size_t i) const {
    return is(i, Value::ListInt) ? &values_[i].ints : listBytes(i, "GetListInt", int_views_);
  }
  const TypedContinuousVector<float>* GetListFloat(size_t i) const {
    return is(i, Value::ListFloat) ? &values_[i].floats
                                   : listBytes(i, "GetListFloat", float_views_);
  }
  /// CANN's typed access: int64_t (Int; or another integer type over its bytes), float (Float),
  /// bool (Bool) or char (Str, the string's characters); another type's attribute gives its
  /// bytes, as above; nullptr for an index out of range or a T that is none of these.
  template <typename T>
  const T* GetAttrPointer(size_t i) const {
    if (std::is_same<T, float>::value)
      return is(i, Value::Float) ? reinterpret_cast<const T*>(&values_[i].f)
                                 : bytes<T>(i, "GetAttrPointer<float>");
    if (std::is_same<T, bool>::value)
      return is(i, Value::Bool) ? reinterpret_cast<const T*>(&values_[i].b)
                                : bytes<T>(i, "GetAttrPointer<bool>");
    if (std::is_same<T, char>::value)
      return is(i, Value::Str) ? reinterpret_cast<const T*>(values_[i].s.c_str())
                               : bytes<T>(i, "GetAttrPointer<char>");
    // An integer type over an Int attribute: CANN keeps an Int as 8 bytes and hands out a pointer
    // to them whatever T is asked for, and projects read int attributes as uint32_t; the low
    // bytes (little-endian) are the value when it fits T.
    if (std::is_integral<T>::value && sizeof(T) <= sizeof(int64_t))
      return is(i, Value::Int) ? reinterpret_cast<const T*>(&values_[i].i)
                               : bytes<T>(i, "GetAttrPointer<integer>");
    return nullptr;
  }
  std::vector<Value>& values() { return values_; }

 private:
  bool is(size_t i, Value::Kind k) const { return i < values_.size() && values_[i].kind == k; }
  static const char* wants(Value::Kind k) {
    static const char* const names[] = {"GetInt", "GetFloat",   "GetBool",
                                        "GetStr", "GetListInt", "GetListFloat"};
    return names[k];
  }
  static const char* kindName(Value::Kind k) {
    static const char* const names[] = {"int", "float", "bool", "str", "list_int", "list_float"};
    return names[k];
  }
  /// Attribute i's bytes as CANN lays them out, with zeros after them (nullptr out of range).
  const uint8_t* image(size_t i, const char* getter) const {
    if (i >= values_.size()) return nullptr;
    auto it = images_.find(i);
    if (it == images_.end()) {
      const Value& v = values_[i];
      std::vector<uint8_t> b;
      auto put = [&b](const void* p, size_t n) {
        b.insert(b.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
      };
      auto putList = [&](const void* data, size_t count, size_t size) {
        const uint64_t n = count;
        put(&n, sizeof n);  // capacity
        put(&n, sizeof n);  // size
        put(data, count * size);
      };
      switch (v.kind) {
        case Value::Int:
          put(&v.i, sizeof v.i);
          break;
        case Value::Float:
          put(&v.f, sizeof v.f);
          break;
        case Value::Bool:
          put(&v.b, sizeof v.b);
          break;
        case Value::Str:
          put(v.s.c_str(), v.s.size() + 1);
          break;
        case Value::ListInt:
          putList(v.ints.data(), v.ints.size(), sizeof(int64_t));
          break;
        case Value::ListFloat:
          putList(v.floats.data(), v.floats.size(), sizeof(float));
          break;
      }
      b.resize(b.size() + 32, 0);
      it = images_.emplace(i, std::move(b)).first;
    }
    const Value& v = values_[i];
    const std::string message = "attribute " + std::to_string(i) + " '" + v.name.str() + "' (" +
                                kindName(v.kind) + ") read with " + getter +
                                ": as on an NPU, that reads the attribute's own bytes as "
                                "another type; call " +
                                wants(v.kind) + " for it";
    asc::ascendc::detail::warnOnce(
        ("attr:" + std::to_string(i) + v.name.str() + ":" + getter).c_str(), message.c_str());
    return it->second.data();
  }
  template <typename T>
  const T* bytes(size_t i, const char* getter) const {
    return reinterpret_cast<const T*>(image(i, getter));
  }
  /// A list getter on another type's attribute: the list CANN's ContinuousVector layout makes
  /// of its bytes (the size at byte 8, the elements from byte 16, as far as the bytes go).
  template <typename T>
  const TypedContinuousVector<T>* listBytes(
      size_t i, const char* getter, std::map<size_t, TypedContinuousVector<T>>& views) const {
    const uint8_t* b = image(i, getter);
    if (!b) return nullptr;
    auto it = views.find(i);
    if (it == views.end()) {
      uint64_t size = 0;
      std::memcpy(&size, b + 8, sizeof size);
      const size_t room = (images_.at(i).size() - 16) / sizeof(T);
      std::vector<T> v(static_cast<size_t>(size < room ? size : room));
      if (!v.empty()) std::memcpy(v.data(), b + 16, v.size() * sizeof(T));
      it = views.emplace(i, TypedContinuousVector<T>(v)).first;
    }
    return &it->second;
  }
  std::vector<Value> values_;
  mutable std::map<size_t, std::vector<uint8_t>> images_;
  mutable std::map<size_t, TypedContinuousVector<int64_t>> int_views_;
  mutable std::map<size_t, TypedContinuousVector<float>> float_views_;
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
