// op_json.cpp: msopgen's op-definition JSON (see asc/opgen/opgen.h).
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "asc/opgen/opgen.h"
#include "templates.h"

namespace asc::opgen {

namespace {

using google::protobuf::Value;

/// msopgen's type spellings -> ge::DataType names.
struct TypeName {
  const char* json;
  const char* ge;
};
constexpr TypeName kTypes[] = {
    {"float", "DT_FLOAT"},     {"float32", "DT_FLOAT"}, {"fp32", "DT_FLOAT"},
    {"float16", "DT_FLOAT16"}, {"fp16", "DT_FLOAT16"},  {"half", "DT_FLOAT16"},
    {"bfloat16", "DT_BF16"},   {"bf16", "DT_BF16"},     {"int8", "DT_INT8"},
    {"uint8", "DT_UINT8"},     {"int16", "DT_INT16"},   {"uint16", "DT_UINT16"},
    {"int32", "DT_INT32"},     {"uint32", "DT_UINT32"}, {"int64", "DT_INT64"},
    {"uint64", "DT_UINT64"},   {"bool", "DT_BOOL"},     {"double", "DT_DOUBLE"},
    {"float64", "DT_DOUBLE"},
};
constexpr const char* kFormats[] = {"ND", "NCHW", "NHWC"};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool isIdentifier(const std::string& s) {
  if (s.empty() || s.size() > 64 ||
      !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

bool isUpperCamel(const std::string& s) {
  if (s.empty() || s.size() > 64 || !std::isupper(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

struct Ctx {
  const std::string& path;
  int* exit_code;
  template <typename... Args>
  Status fail(int code, fmt::format_string<Args...> f, Args&&... args) {
    *exit_code = code;
    return Status::error(ErrorCode::InvalidParam, "{}: {}", path,
                         fmt::format(f, std::forward<Args>(args)...));
  }
};

const Value* field(const Value& obj, const char* name) {
  const auto& f = obj.struct_value().fields();
  auto it = f.find(name);
  return it == f.end() ? nullptr : &it->second;
}

// A list of strings; a lone string counts as a list of one (real projects write "type": "float").
Status stringList(Ctx& c, const std::string& op, const std::string& where, const Value* v,
                  std::vector<std::string>* out) {
  if (v && v->kind_case() == Value::kStringValue) {
    out->push_back(v->string_value());
    return Status::ok();
  }
  if (!v || v->kind_case() != Value::kListValue)
    return c.fail(kOpDefineError, "op '{}': {} must be a list of strings", op, where);
  for (const auto& e : v->list_value().values()) {
    if (e.kind_case() != Value::kStringValue)
      return c.fail(kOpDefineError, "op '{}': {} must be a list of strings", op, where);
    out->push_back(e.string_value());
  }
  return Status::ok();
}

Status parseParam(Ctx& c, const std::string& op, const char* list, size_t index, const Value& v,
                  ParamDesc* p) {
  const std::string where = fmt::format("{}[{}]", list, index);
  if (v.kind_case() != Value::kStructValue)
    return c.fail(kOpDefineError, "op '{}': {} must be an object", op, where);
  const Value* name = field(v, "name");
  if (!name || name->kind_case() != Value::kStringValue || !isIdentifier(name->string_value()))
    return c.fail(kOpDefineError, "op '{}': {}.name must be an identifier (letters, digits, '_')",
                  op, where);
  p->name = name->string_value();
  if (const Value* pt = field(v, "param_type")) {
    p->param_type = pt->kind_case() == Value::kStringValue ? lower(pt->string_value()) : "";
    // A DYNAMIC input is a tensor list (aclTensorList; ListTensorDesc in the kernel); a DYNAMIC
    // output is not built yet.
    if (p->param_type == "dynamic" && std::string(list) != "input_desc")
      return c.fail(kOpDefineError,
                    "op '{}': {} ('{}').param_type 'dynamic' (a list of outputs) is not supported "
                    "by asc-tools yet; use required or optional",
                    op, where, p->name);
    if (p->param_type != "required" && p->param_type != "optional" && p->param_type != "dynamic")
      return c.fail(kOpDefineError,
                    "op '{}': {} ('{}').param_type must be required, optional or dynamic", op,
                    where, p->name);
  }
  std::vector<std::string> types, formats;
  ASC_RETURN_IF_ERROR(
      stringList(c, op, where + " ('" + p->name + "').type", field(v, "type"), &types));
  if (types.empty()) return c.fail(kOpDefineError, "op '{}': {}.type is empty", op, where);
  for (const auto& t : types) {
    std::string ge = detail::geTypeOf(t);
    if (ge.empty())
      return c.fail(kOpDefineError,
                    "op '{}': {} ('{}').type: '{}' is no type asc-tools knows (float, float16, "
                    "bfloat16, int8, uint8, int16, uint16, int32, uint32, int64, uint64, bool, "
                    "double)",
                    op, where, p->name, t);
    p->types.push_back(ge);
  }
  if (const Value* f = field(v, "format")) {
    ASC_RETURN_IF_ERROR(stringList(c, op, where + " ('" + p->name + "').format", f, &formats));
    for (const auto& fm : formats) {
      bool known = false;
      for (const char* k : kFormats) known = known || fm == k;
      if (!known)
        return c.fail(kOpDefineError,
                      "op '{}': {} ('{}').format: '{}' is not supported for custom operators "
                      "(ND, NCHW or NHWC)",
                      op, where, p->name, fm);
    }
  }
  if (formats.empty()) formats.assign(p->types.size(), "ND");
  if (formats.size() != p->types.size())
    return c.fail(kOpDefineError,
                  "op '{}': {} ('{}') has {} types and {} formats; the lists line up column by "
                  "column",
                  op, where, p->name, p->types.size(), formats.size());
  p->formats = formats;
  return Status::ok();
}

// The C++ literal for a JSON number: a float literal, or an int64 one. False when the number has
// no such literal: not finite, or (as an int) fractional or outside int64.
bool numberText(double d, bool as_float, std::string* out) {
  if (!std::isfinite(d)) return false;
  if (as_float) {
    std::string s = fmt::format("{}", d);
    if (s.find_first_of(".eE") == std::string::npos) s += ".0";
    *out = s + "f";
    return true;
  }
  // 2^63 is exact in a double; every double below it and at or above -2^63 converts exactly.
  if (d != std::trunc(d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0) return false;
  *out = fmt::format("{}", static_cast<long long>(d));
  return true;
}

Status parseAttr(Ctx& c, const std::string& op, size_t index, const Value& v, AttrDesc* a) {
  const std::string where = fmt::format("attr[{}]", index);
  if (v.kind_case() != Value::kStructValue)
    return c.fail(kOpDefineError, "op '{}': {} must be an object", op, where);
  const Value* name = field(v, "name");
  if (!name || name->kind_case() != Value::kStringValue || !isIdentifier(name->string_value()))
    return c.fail(kOpDefineError, "op '{}': {}.name must be an identifier", op, where);
  a->name = name->string_value();
  const std::string w = fmt::format("{} ('{}')", where, a->name);
  if (const Value* pt = field(v, "param_type")) {
    a->param_type = pt->kind_case() == Value::kStringValue ? lower(pt->string_value()) : "";
    if (a->param_type != "required" && a->param_type != "optional")
      return c.fail(kOpDefineError, "op '{}': {}.param_type must be required or optional", op, w);
  }
  const Value* type = field(v, "type");
  std::string t =
      type && type->kind_case() == Value::kStringValue ? lower(type->string_value()) : "";
  if (t == "string") t = "str";
  if (t == "listint") t = "list_int";
  if (t == "listfloat") t = "list_float";
  if (t != "int" && t != "float" && t != "bool" && t != "str" && t != "list_int" &&
      t != "list_float")
    return c.fail(kOpDefineError,
                  "op '{}': {}.type must be int, float, bool, str, list_int or list_float", op, w);
  a->type = t;
  const Value* d = field(v, "default_value");
  if (!d) {
    if (a->param_type == "optional")
      return c.fail(kOpDefineError, "op '{}': {} is optional and needs a default_value", op, w);
    return Status::ok();
  }
  auto bad = [&] {
    return c.fail(kOpDefineError, "op '{}': {}.default_value does not fit type {}", op, w, t);
  };
  if (t == "int" || t == "float") {
    double x = 0;
    if (d->kind_case() == Value::kNumberValue)
      x = d->number_value();
    else if (d->kind_case() == Value::kStringValue) {
      try {
        x = std::stod(d->string_value());
      } catch (...) {
        return bad();
      }
    } else {
      return bad();
    }
    if (!numberText(x, t == "float", &a->default_value)) return bad();
  } else if (t == "bool") {
    if (d->kind_case() == Value::kBoolValue)
      a->default_value = d->bool_value() ? "true" : "false";
    else if (d->kind_case() == Value::kStringValue &&
             (lower(d->string_value()) == "true" || lower(d->string_value()) == "false"))
      a->default_value = lower(d->string_value());
    else
      return bad();
  } else if (t == "str") {
    if (d->kind_case() != Value::kStringValue) return bad();
    for (char ch : d->string_value())
      if (!std::isprint(static_cast<unsigned char>(ch)) || ch == '"' || ch == '\\') return bad();
    a->default_value = "\"" + d->string_value() + "\"";
  } else {
    if (d->kind_case() != Value::kListValue) return bad();
    std::string s;
    for (const auto& e : d->list_value().values()) {
      std::string text;
      if (e.kind_case() != Value::kNumberValue ||
          !numberText(e.number_value(), t == "list_float", &text))
        return bad();
      s += (s.empty() ? "" : ", ") + text;
    }
    a->default_value = "{" + s + "}";
  }
  return Status::ok();
}

}  // namespace

std::string detail::geTypeOf(const std::string& type) {
  const std::string t = lower(type);
  for (const auto& k : kTypes)
    if (t == k.json) return k.ge;
  return "";
}

std::string snakeCase(const std::string& s) {
  // msopgen: an upper-case letter starts a new word when it follows a lower-case letter or a
  // digit, or when it is followed by a lower-case letter after an upper-case one ("Conv2D" ->
  // "conv2_d", "AddCustom" -> "add_custom", "HTTPServer" -> "http_server").
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isupper(c) && i > 0) {
      const unsigned char p = static_cast<unsigned char>(s[i - 1]);
      const bool next_lower =
          i + 1 < s.size() && std::islower(static_cast<unsigned char>(s[i + 1]));
      if (std::islower(p) || std::isdigit(p) || (std::isupper(p) && next_lower)) out += '_';
    }
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

Status parseOpJson(const std::string& text, const std::string& path, std::vector<OpDesc>* ops,
                   int* exit_code) {
  Ctx c{path, exit_code};
  Value root;
  auto st = google::protobuf::util::JsonStringToMessage(text, &root);
  if (!st.ok()) return c.fail(kInvalidOpInfoFile, "not valid JSON: {}", st.ToString());
  if (root.kind_case() != Value::kListValue || root.list_value().values_size() == 0)
    return c.fail(kInvalidOpInfoFile,
                  "an op-definition JSON is a non-empty list of operators "
                  "([{{\"op\": \"AddCustom\", \"input_desc\": [...], \"output_desc\": [...]}}])");
  std::set<std::string> seen;
  int index = 0;
  for (const auto& v : root.list_value().values()) {
    OpDesc d;
    if (v.kind_case() != Value::kStructValue)
      return c.fail(kOpDefineError, "entry {} is not an object", index);
    const Value* op = field(v, "op");
    if (!op || op->kind_case() != Value::kStringValue)
      return c.fail(kOpDefineError, "entry {} has no \"op\" string", index);
    d.op = op->string_value();
    if (!isUpperCamel(d.op))
      return c.fail(kOpDefineError,
                    "op '{}': the op type must be UpperCamelCase (a capital letter, then letters "
                    "and digits only, at most 64)",
                    d.op.size() > 80 ? d.op.substr(0, 80) + "..." : d.op);
    if (!seen.insert(d.op).second) return c.fail(kOpDefineError, "op '{}' is defined twice", d.op);
    d.snake = snakeCase(d.op);
    for (const char* list : {"input_desc", "output_desc"}) {
      const Value* l = field(v, list);
      if (!l || l->kind_case() != Value::kListValue || l->list_value().values_size() == 0)
        return c.fail(kOpDefineError, "op '{}': {} must be a non-empty list", d.op, list);
      auto& params = std::string(list) == "input_desc" ? d.inputs : d.outputs;
      for (int i = 0; i < l->list_value().values_size(); ++i) {
        ParamDesc p;
        ASC_RETURN_IF_ERROR(parseParam(c, d.op, list, i, l->list_value().values(i), &p));
        params.push_back(std::move(p));
      }
    }
    for (const auto& p : d.outputs)
      if (p.param_type != "required")
        return c.fail(kOpDefineError, "op '{}': output '{}' must be required", d.op, p.name);
    // The generated kernel, UT and ST start from an input that is always given.
    if (std::all_of(d.inputs.begin(), d.inputs.end(),
                    [](const ParamDesc& p) { return p.param_type == "optional"; }))
      return c.fail(kOpDefineError,
                    "op '{}': every input is optional; asc-tools generates a project for an "
                    "operator with at least one required or dynamic input",
                    d.op);
    if (const Value* attrs = field(v, "attr")) {
      if (attrs->kind_case() != Value::kListValue)
        return c.fail(kOpDefineError, "op '{}': attr must be a list", d.op);
      for (int i = 0; i < attrs->list_value().values_size(); ++i) {
        AttrDesc a;
        ASC_RETURN_IF_ERROR(parseAttr(c, d.op, i, attrs->list_value().values(i), &a));
        d.attrs.push_back(std::move(a));
      }
    }
    // Names are unique (they become C++ identifiers and DTYPE_<NAME> macros), and every type
    // list has the same number of columns. An output may share its input's name exactly: the
    // operator updates that tensor in place (aclnn's <name>Ref), if the two list the same types.
    std::set<std::string> names;
    for (const auto* list : {&d.inputs, &d.outputs})
      for (const auto& p : *list) {
        std::string up;
        for (char ch : p.name)
          up += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        const ParamDesc* in_place = nullptr;
        if (list == &d.outputs)
          for (const auto& i : d.inputs)
            if (i.name == p.name && i.param_type == "required" && p.param_type == "required")
              in_place = &i;
        if (in_place && in_place->types != p.types)
          return c.fail(kOpDefineError,
                        "op '{}': input and output '{}' are one tensor updated in place, so they "
                        "list the same types",
                        d.op, p.name);
        if (!in_place && !names.insert(up).second)
          return c.fail(kOpDefineError, "op '{}': the name '{}' is used twice (case-insensitive)",
                        d.op, p.name);
        if (p.types.size() != d.inputs[0].types.size())
          return c.fail(kOpDefineError,
                        "op '{}': '{}' lists {} types, '{}' lists {}; every input and output "
                        "lists one type per supported combination",
                        d.op, p.name, p.types.size(), d.inputs[0].name, d.inputs[0].types.size());
      }
    for (const auto& a : d.attrs)
      if (!names.insert(a.name).second)
        return c.fail(kOpDefineError, "op '{}': the name '{}' is used twice", d.op, a.name);
    ops->push_back(std::move(d));
    ++index;
  }
  return Status::ok();
}

}  // namespace asc::opgen
