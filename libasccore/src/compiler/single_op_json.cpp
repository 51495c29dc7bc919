// single_op_json.cpp: the --singleop file (single_op.h's parseJson) and the description an OM
// records (toJson), in GE's single-op parser's keys and spellings (ascend-facts.md).
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compiler/single_op_detail.h"

namespace asc::singleop {

using namespace detail;

namespace {

using google::protobuf::ListValue;
using google::protobuf::Struct;
using google::protobuf::Value;

// Where a message points: "op 0 (AddCustom) input 1".
struct Where {
  std::string source;
  size_t op = 0;
  std::string type;
  std::string at() const {
    return fmt::format("--singleop {}: op {}{}", source, op,
                       type.empty() ? std::string() : " (" + type + ")");
  }
};

bool isInteger(const Value& v, int64_t* out) {
  if (v.kind_case() != Value::kNumberValue) return false;
  const double d = v.number_value();
  if (std::floor(d) != d || std::fabs(d) > 9.0e15) return false;
  *out = static_cast<int64_t>(d);
  return true;
}

Result<ir::Shape> intList(const Value& v, const Where& w, const std::string& what) {
  if (v.kind_case() != Value::kListValue)
    return Status::error(ErrorCode::SingleOpTensor, "{} {}: not a list of whole numbers", w.at(),
                         what);
  ir::Shape dims;
  for (const auto& e : v.list_value().values()) {
    int64_t d;
    if (!isInteger(e, &d))
      return Status::error(ErrorCode::SingleOpTensor, "{} {}: not a list of whole numbers", w.at(),
                           what);
    dims.push_back(d);
  }
  return dims;
}

Result<TensorDesc> parseTensor(const Struct& s, const Where& w, const std::string& what) {
  const auto& f = s.fields();
  TensorDesc t;
  auto str = [&](const char* key, std::string* out) -> Status {
    auto it = f.find(key);
    if (it == f.end()) return Status::ok();
    if (it->second.kind_case() != Value::kStringValue)
      return Status::error(ErrorCode::SingleOpTensor, "{} {}: \"{}\" is not a string", w.at(), what,
                           key);
    *out = it->second.string_value();
    return Status::ok();
  };
  ASC_RETURN_IF_ERROR(str("name", &t.name));
  std::string type, format, origin_format;
  ASC_RETURN_IF_ERROR(str("type", &type));
  ASC_RETURN_IF_ERROR(str("format", &format));
  ASC_RETURN_IF_ERROR(str("origin_format", &origin_format));
  if (type.empty() || format.empty() || !f.count("shape"))
    return Status::error(ErrorCode::SingleOpTensor,
                         "{} {}: \"type\", \"format\" and \"shape\" are required", w.at(), what);
  const std::string dt = lower(type);
  const DtypeName* dn = nullptr;
  for (const auto& d : kDtypes)
    if (dt == d.name) dn = &d;
  if (!dn) {
    if (dt == "complex64" || dt == "complex128")
      return Status::error(ErrorCode::NotImplemented,
                           "The operation is not supported. Reason: {} {}: dtype {} is not "
                           "supported by asc-tools",
                           w.at(), what, type);
    return Status::error(ErrorCode::SingleOpTensor,
                         "{} {}: dtype \"{}\" is not valid (float16, float, int8, int16, int32, "
                         "int64, uint8, uint16, uint32, uint64, double, bool, bfloat16)",
                         w.at(), what, type);
  }
  t.dtype = dn->dtype;
  const FormatName* fn = nullptr;
  for (const auto& x : kFormats)
    if (upper(format) == x.name) fn = &x;
  if (!fn)
    return Status::error(ErrorCode::SingleOpTensor,
                         "{} {}: format \"{}\" is not valid (ND, NCHW, NHWC, NCDHW, NDHWC, NC, "
                         "NCL, HWCN)",
                         w.at(), what, format);
  if (!fn->plain)
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: {} {}: format {} is an NPU "
                         "layout; the CPU runtime takes plain row-major data (ND, NCHW, NHWC, "
                         "...)",
                         w.at(), what, fn->name);
  t.format = fn->name;
  if (!origin_format.empty() && upper(origin_format) != t.format)
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: {} {}: an origin_format ({}) "
                         "other than the format ({}) is not supported by asc-tools",
                         w.at(), what, origin_format, t.format);
  ASC_TRY(t.dims, intList(f.at("shape"), w, what + " \"shape\""));
  for (int64_t d : t.dims) {
    if (d == -2)
      return Status::error(ErrorCode::NotImplemented,
                           "The operation is not supported. Reason: {} {}: an unknown rank "
                           "(shape [-2]) is not supported by asc-tools; give the rank with -1 "
                           "dims",
                           w.at(), what);
    if (d < -1)
      return Status::error(ErrorCode::SingleOpTensor, "{} {}: dim {} in \"shape\" is not valid",
                           w.at(), what, d);
  }
  if (auto it = f.find("origin_shape"); it != f.end()) {
    ASC_TRY(ir::Shape origin, intList(it->second, w, what + " \"origin_shape\""));
    if (origin != t.dims)
      return Status::error(ErrorCode::NotImplemented,
                           "The operation is not supported. Reason: {} {}: an origin_shape "
                           "other than the shape is not supported by asc-tools",
                           w.at(), what);
  }
  for (const char* key : {"is_const", "dynamic_input", "dynamic_output"})
    if (auto it = f.find(key);
        it != f.end() && !(it->second.kind_case() == Value::kBoolValue && !it->second.bool_value()))
      return Status::error(ErrorCode::NotImplemented,
                           "The operation is not supported. Reason: {} {}: \"{}\" is not "
                           "supported by asc-tools (each tensor is its own input or output)",
                           w.at(), what, key);
  const bool dynamic = std::count(t.dims.begin(), t.dims.end(), -1) > 0;
  if (auto it = f.find("shape_range"); it != f.end()) {
    const Value& r = it->second;
    if (r.kind_case() != Value::kListValue)
      return Status::error(ErrorCode::SingleOpTensor,
                           "{} {}: \"shape_range\" is not a list of [min, max] pairs", w.at(),
                           what);
    std::vector<om::DimRange> given;
    for (const auto& e : r.list_value().values()) {
      ASC_TRY(ir::Shape pair, intList(e, w, what + " \"shape_range\""));
      if (pair.size() != 2 || pair[0] < 0 || (pair[1] != -1 && pair[1] < pair[0]))
        return Status::error(ErrorCode::SingleOpTensor,
                             "{} {}: \"shape_range\" entry [{}] is not [min, max] with 0 <= min "
                             "<= max (max -1: no bound)",
                             w.at(), what, fmt::join(pair, ", "));
      given.push_back({pair[0], pair[1]});
    }
    // GE gives the ranges of the -1 dims, or of every dim.
    size_t unknown = 0;
    for (int64_t d : t.dims) unknown += d == -1;
    if (dynamic && given.size() != t.dims.size() && given.size() != unknown)
      return Status::error(ErrorCode::SingleOpTensor,
                           "{} {}: \"shape_range\" has {} pairs; give one per dim ({}) or per -1 "
                           "dim ({})",
                           w.at(), what, given.size(), t.dims.size(), unknown);
    if (dynamic) {
      size_t next = 0;
      for (size_t k = 0; k < t.dims.size(); ++k) {
        om::DimRange dr{t.dims[k], t.dims[k]};
        if (given.size() == t.dims.size())
          dr = given[k];
        else if (t.dims[k] == -1)
          dr = given[next++];
        if (t.dims[k] != -1 && (dr.min != t.dims[k] || dr.max != t.dims[k]))
          return Status::error(ErrorCode::SingleOpTensor,
                               "{} {}: \"shape_range\" [{}, {}] of dim {} differs from its fixed "
                               "size {}",
                               w.at(), what, dr.min, dr.max, k, t.dims[k]);
        t.ranges.push_back(dr);
      }
    }
  }
  if (dynamic && t.ranges.empty())
    for (int64_t d : t.dims) t.ranges.push_back(d == -1 ? om::DimRange{1, -1} : om::DimRange{d, d});
  for (auto& r : t.ranges)
    if (r.min == 0 && r.max != 0) r.min = 1;  // a dim of a run is at least 1
  return t;
}

// GE's DataType enum by its DT_ name ("DT_FLOAT16"), for data_type attributes.
bool dataTypeByName(const std::string& name, int64_t* out) {
  for (const auto& d : kDtypes)
    if (upper(name) == "DT_" + upper(d.name) ||
        (d.dtype == ir::DType::F32 && upper(name) == "DT_FLOAT") ||
        (d.dtype == ir::DType::BF16 && upper(name) == "DT_BF16")) {
      *out = d.acl;
      return true;
    }
  return false;
}

Result<std::pair<std::string, ir::AttrValue>> parseAttr(const Value& a, const Where& w, size_t k) {
  if (a.kind_case() != Value::kStructValue)
    return Status::error(ErrorCode::SingleOpAttrValue, "{} attr {}: not an object", w.at(), k);
  const auto& f = a.struct_value().fields();
  auto name_it = f.find("name");
  if (name_it == f.end() || name_it->second.kind_case() != Value::kStringValue ||
      name_it->second.string_value().empty())
    return Status::error(ErrorCode::SingleOpAttrName, "{} attr {}: \"name\" is missing or empty",
                         w.at(), k);
  const std::string name = name_it->second.string_value();
  auto type_it = f.find("type");
  auto value_it = f.find("value");
  const std::string type = type_it != f.end() && type_it->second.kind_case() == Value::kStringValue
                               ? type_it->second.string_value()
                               : std::string();
  auto bad = [&](const char* expected) {
    return Status::error(ErrorCode::SingleOpAttrValue,
                         "{} attr '{}': its \"value\" is missing or is not {} (type \"{}\")",
                         w.at(), name, expected, type);
  };
  if (type == "list_list_int")
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: {} attr '{}': list_list_int "
                         "attributes are not supported by asc-tools",
                         w.at(), name);
  if (value_it == f.end()) return bad("given");
  const Value& v = value_it->second;
  auto list = [&](auto take) -> bool {
    if (v.kind_case() != Value::kListValue) return false;
    for (const auto& e : v.list_value().values())
      if (!take(e)) return false;
    return true;
  };
  if (type == "bool") {
    if (v.kind_case() != Value::kBoolValue) return bad("true or false");
    return std::make_pair(name, ir::AttrValue(int64_t(v.bool_value())));
  }
  if (type == "int") {
    int64_t i;
    if (!isInteger(v, &i)) return bad("a whole number");
    return std::make_pair(name, ir::AttrValue(i));
  }
  if (type == "data_type") {
    int64_t i;
    if (v.kind_case() == Value::kStringValue ? !dataTypeByName(v.string_value(), &i)
                                             : !isInteger(v, &i))
      return bad("a DT_ name (DT_FLOAT16) or GE's number of a dtype");
    return std::make_pair(name, ir::AttrValue(i));
  }
  if (type == "float") {
    if (v.kind_case() != Value::kNumberValue || !std::isfinite(float(v.number_value())))
      return bad("a number within float's range");
    return std::make_pair(name, ir::AttrValue(float(v.number_value())));
  }
  if (type == "string") {
    if (v.kind_case() != Value::kStringValue) return bad("a string");
    return std::make_pair(name, ir::AttrValue(v.string_value()));
  }
  if (type == "list_int" || type == "list_bool") {
    std::vector<int64_t> out;
    const bool ok = list([&](const Value& e) {
      int64_t i;
      if (type == "list_bool") {
        if (e.kind_case() != Value::kBoolValue) return false;
        out.push_back(e.bool_value());
        return true;
      }
      if (!isInteger(e, &i)) return false;
      out.push_back(i);
      return true;
    });
    if (!ok) return bad(type == "list_int" ? "a list of whole numbers" : "a list of booleans");
    return std::make_pair(name, ir::AttrValue(out));
  }
  if (type == "list_float") {
    std::vector<float> out;
    if (!list([&](const Value& e) {
          if (e.kind_case() != Value::kNumberValue || !std::isfinite(float(e.number_value())))
            return false;
          out.push_back(float(e.number_value()));
          return true;
        }))
      return bad("a list of numbers within float's range");
    return std::make_pair(name, ir::AttrValue(out));
  }
  if (type == "list_string") {
    std::vector<std::string> out;
    if (!list([&](const Value& e) {
          if (e.kind_case() != Value::kStringValue) return false;
          out.push_back(e.string_value());
          return true;
        }))
      return bad("a list of strings");
    return std::make_pair(name, ir::AttrValue(out));
  }
  return Status::error(ErrorCode::SingleOpAttrValue,
                       "{} attr '{}': type \"{}\" is not one of bool, int, float, string, "
                       "list_bool, list_int, list_float, list_string, data_type",
                       w.at(), name, type);
}

std::string tensorJson(const TensorDesc& t) {
  std::string s = "{";
  if (!t.name.empty()) s += "\"name\": " + quoted(t.name) + ", ";
  s += fmt::format("\"format\": \"{}\", \"shape\": {}", t.format, shapeText(t.dims));
  if (!t.ranges.empty()) {
    std::vector<std::string> pairs;
    for (const auto& r : t.ranges) pairs.push_back(fmt::format("[{},{}]", r.min, r.max));
    s += fmt::format(", \"shape_range\": [{}]", fmt::join(pairs, ","));
  }
  s += fmt::format(", \"type\": \"{}\"}}", dtypeText(t.dtype));
  return s;
}

}  // namespace

namespace detail {

std::string quoted(const std::string& v) {
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string attrJson(const std::string& name, const ir::AttrValue& v) {
  struct Visit {
    std::string operator()(int64_t i) const { return fmt::format("\"int\", \"value\": {}", i); }
    std::string operator()(float f) const { return fmt::format("\"float\", \"value\": {}", f); }
    std::string operator()(const std::string& s) const {
      return "\"string\", \"value\": " + quoted(s);
    }
    std::string operator()(const std::vector<int64_t>& l) const {
      return fmt::format("\"list_int\", \"value\": [{}]", fmt::join(l, ","));
    }
    std::string operator()(const std::vector<float>& l) const {
      return fmt::format("\"list_float\", \"value\": [{}]", fmt::join(l, ","));
    }
    std::string operator()(const std::vector<std::string>& l) const {
      std::vector<std::string> q;
      for (const auto& s : l) q.push_back(quoted(s));
      return fmt::format("\"list_string\", \"value\": [{}]", fmt::join(q, ","));
    }
    std::string operator()(const ir::Tensor&) const { return "\"string\", \"value\": \"\""; }
  };
  return fmt::format("{{\"name\": {}, \"type\": {}}}", quoted(name), std::visit(Visit{}, v));
}

}  // namespace detail

Result<std::vector<OpDesc>> parseJson(const std::string& text, const std::string& source) {
  ListValue root;
  auto st = google::protobuf::util::JsonStringToMessage(text, &root);
  if (!st.ok())
    return Status::error(ErrorCode::SingleOpParse,
                         "--singleop {}: not a JSON list of op descriptions ({}); expected "
                         "[{{\"op\": \"Add\", \"input_desc\": [...], \"output_desc\": [...]}}]",
                         source, st.ToString());
  std::vector<OpDesc> ops;
  for (int i = 0; i < root.values_size(); ++i) {
    Where w{source, static_cast<size_t>(i), ""};
    const Value& v = root.values(i);
    if (v.kind_case() != Value::kStructValue)
      return Status::error(ErrorCode::SingleOpParse, "{}: not a JSON object", w.at());
    const auto& f = v.struct_value().fields();
    OpDesc d;
    if (auto it = f.find("op"); it != f.end() && it->second.kind_case() == Value::kStringValue)
      d.op = it->second.string_value();
    if (d.op.empty())
      return Status::error(ErrorCode::SingleOpNoOp, "{}: \"op\" (the op type) is missing or empty",
                           w.at());
    w.type = d.op;
    for (const char* key : {"input_desc", "output_desc"}) {
      auto it = f.find(key);
      if (it == f.end()) continue;
      if (it->second.kind_case() != Value::kListValue)
        return Status::error(ErrorCode::SingleOpTensor, "{}: \"{}\" is not a list", w.at(), key);
      const bool in = key[0] == 'i';
      const auto& list = it->second.list_value().values();
      for (int k = 0; k < list.size(); ++k) {
        const std::string what = fmt::format("{} {}", in ? "input" : "output", k);
        if (list[k].kind_case() != Value::kStructValue)
          return Status::error(ErrorCode::SingleOpTensor, "{} {}: not a JSON object", w.at(), what);
        ASC_TRY(TensorDesc t, parseTensor(list[k].struct_value(), w, what));
        (in ? d.inputs : d.outputs).push_back(std::move(t));
      }
    }
    if (d.outputs.empty())
      return Status::error(ErrorCode::SingleOpTensor, "{}: \"output_desc\" gives no output",
                           w.at());
    if (auto it = f.find("attr"); it != f.end()) {
      if (it->second.kind_case() != Value::kListValue)
        return Status::error(ErrorCode::SingleOpAttrValue, "{}: \"attr\" is not a list", w.at());
      const auto& list = it->second.list_value().values();
      for (int k = 0; k < list.size(); ++k) {
        ASC_TRY(auto attr, parseAttr(list[k], w, static_cast<size_t>(k)));
        d.attrs.set(attr.first, std::move(attr.second));
      }
    }
    ops.push_back(std::move(d));
  }
  if (ops.empty())
    return Status::error(ErrorCode::SingleOpParse, "--singleop {}: the list holds no op", source);
  return ops;
}

std::string toJson(const OpDesc& d) {
  std::vector<std::string> ins, outs, attrs;
  for (const auto& t : d.inputs) ins.push_back(tensorJson(t));
  for (const auto& t : d.outputs) outs.push_back(tensorJson(t));
  for (const auto& [name, v] : d.attrs.all()) attrs.push_back(attrJson(name, v));
  return fmt::format(
      "[{{\"op\": {}, \"input_desc\": [{}], \"output_desc\": [{}], \"attr\": [{}]}}]", quoted(d.op),
      fmt::join(ins, ", "), fmt::join(outs, ", "), fmt::join(attrs, ", "));
}

}  // namespace asc::singleop
