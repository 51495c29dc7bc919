// op_def_registry.h: the host side of an Ascend C custom operator, in CANN's spellings, so an
// op_host/<op>.cpp written for CANN reads the same here: the prototype (ops::OpDef with Input,
// Output, Attr, SetInferShape, SetInferDataType, AICore().SetTiling) and OP_ADD(Op) to register
// it; the dtypes and formats (graph/types.h) and the inference and tiling contexts
// (exe_graph/runtime/contexts.h) come with it, as in CANN. The subset is what vector operators
// use; what is missing fails to compile rather than doing something else.
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
#include "exe_graph/runtime/contexts.h"
#include "graph/ge_error_codes.h"
#include "graph/types.h"
#include "register/abi_string.h"
#include "tiling/platform/platform_ascendc.h"

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
  explicit OpAttrDef(const char* name) : name_(name) { value_.name = name_; }
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
    value_.name = name_;
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
