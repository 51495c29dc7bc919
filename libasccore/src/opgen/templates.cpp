// templates.cpp: what the template files share (see templates.h).
#include "opgen/templates.h"

#include <fmt/format.h>

#include <cctype>
#include <utility>

namespace asc::opgen {
namespace detail {
std::string subst(std::string text, const Subst& s) {
  for (const auto& [key, value] : s) {
    for (size_t at = text.find(key); at != std::string::npos;
         at = text.find(key, at + value.size()))
      text.replace(at, key.size(), value);
  }
  return text;
}

std::string upper(const std::string& s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

/// Member-name stem of a parameter ("x" -> "X", "x_1" -> "X_1").
std::string stem(const std::string& name) {
  std::string s = name;
  s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

std::vector<const ParamDesc*> required(const std::vector<ParamDesc>& ps) {
  std::vector<const ParamDesc*> out;
  for (const auto& p : ps)
    if (p.param_type == "required") out.push_back(&p);
  return out;
}

std::string tilingType(const AttrDesc& a) {
  if (a.type == "float") return "float";
  if (a.type == "int") return "int64_t";
  if (a.type == "bool") return "int32_t";
  return "";  // str and lists do not go into the tiling data
}

std::string attrGetter(const AttrDesc& a) {
  if (a.type == "float") return "GetFloat";
  if (a.type == "int") return "GetInt";
  if (a.type == "bool") return "GetBool";
  if (a.type == "str") return "GetStr";
  if (a.type == "list_int") return "GetListInt";
  return "GetListFloat";
}

std::string attrBuilder(const AttrDesc& a) {
  std::string kind = a.type == "float"      ? "Float"
                     : a.type == "int"      ? "Int"
                     : a.type == "bool"     ? "Bool"
                     : a.type == "str"      ? "String"
                     : a.type == "list_int" ? "ListInt"
                                            : "ListFloat";
  return fmt::format(".AttrType({}).{}({})", a.param_type == "required" ? "REQUIRED" : "OPTIONAL",
                     kind, a.default_value);
}

std::string joinGe(const std::vector<std::string>& v, const char* prefix) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + std::string(prefix) + x;
  return s;
}

/// Random test data of a C++ type, as the UT/ST generate it.
std::string randomRange(const std::string& ge) {
  if (ge == "DT_BOOL") return "0, 1";
  if (ge == "DT_UINT8" || ge == "DT_UINT16" || ge == "DT_UINT32" || ge == "DT_UINT64")
    return "0, 100";
  if (ge == "DT_INT8" || ge == "DT_INT16" || ge == "DT_INT32" || ge == "DT_INT64") return "-50, 50";
  return "-2, 2";
}

const char* numpyName(const std::string& ge) {
  static const std::pair<const char*, const char*> kMap[] = {
      {"DT_FLOAT", "float32"},  {"DT_FLOAT16", "float16"}, {"DT_BF16", "bfloat16"},
      {"DT_INT8", "int8"},      {"DT_UINT8", "uint8"},     {"DT_INT16", "int16"},
      {"DT_UINT16", "uint16"},  {"DT_INT32", "int32"},     {"DT_UINT32", "uint32"},
      {"DT_INT64", "int64"},    {"DT_UINT64", "uint64"},   {"DT_BOOL", "bool"},
      {"DT_DOUBLE", "float64"},
  };
  for (const auto& [g, n] : kMap)
    if (ge == g) return n;
  return "float32";
}

}  // namespace detail

namespace {
/// Each ge::DataType: its C++ element type, CANN's ops-info name and its ge::DataType value.
struct GeType {
  const char* ge;
  const char* ctype;
  const char* info;
  int code;
};
constexpr GeType kGeTypes[] = {
    {"DT_FLOAT", "float", "float32", 0},
    {"DT_FLOAT16", "half", "float16", 1},
    {"DT_BF16", "bfloat16_t", "bfloat16", 27},
    {"DT_INT8", "int8_t", "int8", 2},
    {"DT_UINT8", "uint8_t", "uint8", 4},
    {"DT_INT16", "int16_t", "int16", 6},
    {"DT_UINT16", "uint16_t", "uint16", 7},
    {"DT_INT32", "int32_t", "int32", 3},
    {"DT_UINT32", "uint32_t", "uint32", 8},
    {"DT_INT64", "int64_t", "int64", 9},
    {"DT_UINT64", "uint64_t", "uint64", 10},
    {"DT_BOOL", "bool", "bool", 12},
    {"DT_DOUBLE", "double", "double", 11},
    // No Ascend C element type: an operator's own kernel reads them as float or double pairs.
    // msopgen's JSON cannot name them (op_json.cpp), so no template is made for them.
    {"DT_COMPLEX64", "", "complex64", 16},
    {"DT_COMPLEX128", "", "complex128", 17},
};
const GeType* geType(const std::string& ge) {
  for (const auto& t : kGeTypes)
    if (ge == t.ge) return &t;
  return nullptr;
}
}  // namespace

std::string ctype(const std::string& ge) {
  const GeType* t = geType(ge);
  return t && *t->ctype ? t->ctype : "float";
}

namespace detail {
std::string infoType(const std::string& ge) {
  const GeType* t = geType(ge);
  return t ? t->info : ge;
}
int geCode(const std::string& ge) {
  const GeType* t = geType(ge);
  return t ? t->code : -1;
}
}  // namespace detail

}  // namespace asc::opgen
