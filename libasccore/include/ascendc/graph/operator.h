// graph/operator.h: ge::Operator as a framework plugin's parse function sees it
// (REGISTER_CUSTOM_OP(...).ParseParamsByOperatorFn(fn), register/register.h): op_src holds the
// ONNX node's fields (name, op_type, domain, input, output, and "attribute", the node's
// attributes as JSON text), op_dest receives the custom operator's attributes. Only the
// attribute side of CANN's class is here; building graphs from operators is not part of
// asc-tools' SDK. Every member is kept in ABI-neutral form (register/abi_string.h), so plugins
// built with either C++ ABI exchange operators with libasccore. C++11, as CANN's operator
// projects compile it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"
#include "register/abi_string.h"

namespace ge {

using std::string;  // CANN's graph headers bring these into ge; plugins write `string`
using std::vector;

/// One attribute of an Operator. `kind` says which member holds the value.
struct OperatorAttr {
  enum Kind : int32_t { kInt, kFloat, kBool, kString, kInts, kFloats, kBools, kStrings };
  asc::AbiString name;
  int32_t kind = kInt;
  int64_t i = 0;
  float f = 0.0f;
  asc::AbiString s;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  std::vector<asc::AbiString> strings;
};

class Operator {
 public:
  Operator() = default;
  Operator(const char* name, const char* type) : name_(name), type_(type) {}
  Operator(const AscendString& name, const AscendString& type)
      : name_(name.GetString()), type_(type.GetString()) {}
  explicit Operator(const char* type) : type_(type) {}

  graphStatus GetName(AscendString& name) const {
    name = AscendString(name_.c_str());
    return GRAPH_SUCCESS;
  }
  graphStatus GetOpType(AscendString& type) const {
    type = AscendString(type_.c_str());
    return GRAPH_SUCCESS;
  }
  std::string GetName() const { return name_.str(); }
  std::string GetOpType() const { return type_.str(); }

  // SetAttr: one overload per value type CANN's Operator takes for attributes of a custom
  // operator; a later call replaces the value.
  Operator& SetAttr(const char* name, int64_t v) {
    return put(name, OperatorAttr::kInt).i = v, *this;
  }
  Operator& SetAttr(const char* name, int32_t v) { return SetAttr(name, int64_t(v)); }
  Operator& SetAttr(const char* name, uint32_t v) { return SetAttr(name, int64_t(v)); }
  Operator& SetAttr(const char* name, uint64_t v) { return SetAttr(name, int64_t(v)); }
  Operator& SetAttr(const char* name, double v) { return SetAttr(name, float(v)); }
  Operator& SetAttr(const char* name, float v) {
    return put(name, OperatorAttr::kFloat).f = v, *this;
  }
  Operator& SetAttr(const char* name, bool v) {
    return put(name, OperatorAttr::kBool).i = v, *this;
  }
  Operator& SetAttr(const char* name, const char* v) {
    return put(name, OperatorAttr::kString).s = asc::AbiString(v), *this;
  }
  Operator& SetAttr(const char* name, const AscendString& v) {
    return SetAttr(name, v.GetString());
  }
  Operator& SetAttr(const char* name, const std::string& v) { return SetAttr(name, v.c_str()); }
  Operator& SetAttr(const char* name, const std::vector<int64_t>& v) {
    return put(name, OperatorAttr::kInts).ints = v, *this;
  }
  Operator& SetAttr(const char* name, const std::vector<int32_t>& v) {
    return SetAttr(name, std::vector<int64_t>(v.begin(), v.end()));
  }
  Operator& SetAttr(const char* name, const std::vector<uint32_t>& v) {
    return SetAttr(name, std::vector<int64_t>(v.begin(), v.end()));
  }
  Operator& SetAttr(const char* name, const std::vector<float>& v) {
    return put(name, OperatorAttr::kFloats).floats = v, *this;
  }
  Operator& SetAttr(const char* name, const std::vector<bool>& v) {
    return put(name, OperatorAttr::kBools).ints = std::vector<int64_t>(v.begin(), v.end()), *this;
  }
  Operator& SetAttr(const char* name, const std::vector<AscendString>& v) {
    OperatorAttr& a = put(name, OperatorAttr::kStrings);
    for (const auto& e : v) a.strings.push_back(asc::AbiString(e.GetString()));
    return *this;
  }
  Operator& SetAttr(const char* name, const std::vector<std::string>& v) {
    OperatorAttr& a = put(name, OperatorAttr::kStrings);
    for (const auto& e : v) a.strings.push_back(asc::AbiString(e));
    return *this;
  }

  // GetAttr: GRAPH_FAILED when the operator has no such attribute or it holds another type
  // (an integer reads as any integer type, a bool as bool only).
  graphStatus GetAttr(const char* name, int64_t& v) const { return getInt(name, v); }
  graphStatus GetAttr(const char* name, int32_t& v) const { return getInt(name, v); }
  graphStatus GetAttr(const char* name, uint32_t& v) const { return getInt(name, v); }
  graphStatus GetAttr(const char* name, float& v) const {
    return read(name, OperatorAttr::kFloat, [&](const OperatorAttr& a) { v = a.f; });
  }
  graphStatus GetAttr(const char* name, bool& v) const {
    return read(name, OperatorAttr::kBool, [&](const OperatorAttr& a) { v = a.i != 0; });
  }
  graphStatus GetAttr(const char* name, AscendString& v) const {
    return read(name, OperatorAttr::kString,
                [&](const OperatorAttr& a) { v = AscendString(a.s.c_str(), a.s.size()); });
  }
  graphStatus GetAttr(const char* name, std::string& v) const {
    return read(name, OperatorAttr::kString, [&](const OperatorAttr& a) { v = a.s.str(); });
  }
  graphStatus GetAttr(const char* name, std::vector<int64_t>& v) const {
    return read(name, OperatorAttr::kInts, [&](const OperatorAttr& a) { v = a.ints; });
  }
  graphStatus GetAttr(const char* name, std::vector<int32_t>& v) const {
    return read(name, OperatorAttr::kInts,
                [&](const OperatorAttr& a) { v.assign(a.ints.begin(), a.ints.end()); });
  }
  graphStatus GetAttr(const char* name, std::vector<float>& v) const {
    return read(name, OperatorAttr::kFloats, [&](const OperatorAttr& a) { v = a.floats; });
  }
  graphStatus GetAttr(const char* name, std::vector<bool>& v) const {
    return read(name, OperatorAttr::kBools,
                [&](const OperatorAttr& a) { v.assign(a.ints.begin(), a.ints.end()); });
  }
  graphStatus GetAttr(const char* name, std::vector<AscendString>& v) const {
    return read(name, OperatorAttr::kStrings, [&](const OperatorAttr& a) {
      v.clear();
      for (const auto& e : a.strings) v.push_back(AscendString(e.c_str(), e.size()));
    });
  }
  graphStatus GetAttr(const char* name, std::vector<std::string>& v) const {
    return read(name, OperatorAttr::kStrings, [&](const OperatorAttr& a) {
      v.clear();
      for (const auto& e : a.strings) v.push_back(e.str());
    });
  }
  bool HasAttr(const char* name) const {
    for (const auto& a : attrs_)
      if (a.name == asc::AbiString(name)) return true;
    return false;
  }

  // asc-tools' own access (the library fills op_src and reads op_dest): the attributes in the
  // order they were first set, and those of the ONNX node itself, which AutoMappingByOpFn copies.
  const std::vector<OperatorAttr>& ascAttrs() const { return attrs_; }
  std::vector<OperatorAttr>& ascAttrs() { return attrs_; }
  const std::vector<OperatorAttr>& ascOriginAttrs() const { return origin_attrs_; }
  std::vector<OperatorAttr>& ascOriginAttrs() { return origin_attrs_; }

 private:
  OperatorAttr& put(const char* name, int32_t kind) {
    const asc::AbiString key(name);
    for (auto& a : attrs_)
      if (a.name == key) {
        a = OperatorAttr();
        a.name = key;
        a.kind = kind;
        return a;
      }
    attrs_.push_back(OperatorAttr());
    attrs_.back().name = key;
    attrs_.back().kind = kind;
    return attrs_.back();
  }
  const OperatorAttr* find(const char* name, int32_t kind) const {
    const asc::AbiString key(name);
    for (const auto& a : attrs_)
      if (a.name == key) return a.kind == kind ? &a : nullptr;
    return nullptr;
  }
  template <typename Copy>
  graphStatus read(const char* name, int32_t kind, Copy copy) const {
    const OperatorAttr* a = find(name, kind);
    if (!a) return GRAPH_FAILED;
    copy(*a);
    return GRAPH_SUCCESS;
  }
  template <typename T>
  graphStatus getInt(const char* name, T& v) const {
    return read(name, OperatorAttr::kInt, [&](const OperatorAttr& a) { v = static_cast<T>(a.i); });
  }

  asc::AbiString name_, type_;
  std::vector<OperatorAttr> attrs_;
  std::vector<OperatorAttr> origin_attrs_;
};

}  // namespace ge
