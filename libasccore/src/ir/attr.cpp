// attr.cpp: typed attribute access with defaults.
#include "asc/ir/attr.h"

namespace asc::ir {

const AttrValue* Attrs::find(const std::string& name) const {
  auto it = map_.find(name);
  return it == map_.end() ? nullptr : &it->second;
}

int64_t Attrs::getInt(const std::string& name, int64_t def) const {
  auto* v = find(name);
  if (!v) return def;
  if (auto* i = std::get_if<int64_t>(v)) return *i;
  if (auto* f = std::get_if<float>(v)) return static_cast<int64_t>(*f);
  return def;
}

float Attrs::getFloat(const std::string& name, float def) const {
  auto* v = find(name);
  if (!v) return def;
  if (auto* f = std::get_if<float>(v)) return *f;
  if (auto* i = std::get_if<int64_t>(v)) return static_cast<float>(*i);
  return def;
}

std::string Attrs::getString(const std::string& name, const std::string& def) const {
  auto* v = find(name);
  if (!v) return def;
  if (auto* s = std::get_if<std::string>(v)) return *s;
  return def;
}

std::vector<int64_t> Attrs::getInts(const std::string& name, std::vector<int64_t> def) const {
  auto* v = find(name);
  if (!v) return def;
  if (auto* i = std::get_if<std::vector<int64_t>>(v)) return *i;
  if (auto* i = std::get_if<int64_t>(v)) return {*i};
  return def;
}

std::vector<float> Attrs::getFloats(const std::string& name, std::vector<float> def) const {
  auto* v = find(name);
  if (!v) return def;
  if (auto* f = std::get_if<std::vector<float>>(v)) return *f;
  if (auto* f = std::get_if<float>(v)) return {*f};
  return def;
}

const Tensor* Attrs::getTensor(const std::string& name) const {
  auto* v = find(name);
  return v ? std::get_if<Tensor>(v) : nullptr;
}

bool Attrs::operator==(const Attrs& o) const { return map_ == o.map_; }

}  // namespace asc::ir
