// attr.h: node attributes. Names and meanings follow the ONNX operator spec; the importer
// moves parameters that later opsets made into inputs (Clip min/max, Squeeze axes, Reshape
// shape, ...) into attributes once their values are known, so each op has one canonical form.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/tensor.h"

namespace asc::ir {

using AttrValue = std::variant<int64_t, float, std::string, std::vector<int64_t>,
                               std::vector<float>, std::vector<std::string>, Tensor>;

class ASC_API Attrs {
 public:
  bool has(const std::string& name) const { return map_.count(name) != 0; }
  void set(const std::string& name, AttrValue v) { map_[name] = std::move(v); }
  void erase(const std::string& name) { map_.erase(name); }
  const AttrValue* find(const std::string& name) const;

  int64_t getInt(const std::string& name, int64_t def) const;
  float getFloat(const std::string& name, float def) const;
  std::string getString(const std::string& name, const std::string& def) const;
  std::vector<int64_t> getInts(const std::string& name, std::vector<int64_t> def = {}) const;
  std::vector<float> getFloats(const std::string& name, std::vector<float> def = {}) const;
  const Tensor* getTensor(const std::string& name) const;

  const std::map<std::string, AttrValue>& all() const { return map_; }
  bool operator==(const Attrs& o) const;

 private:
  std::map<std::string, AttrValue> map_;
};

}  // namespace asc::ir
