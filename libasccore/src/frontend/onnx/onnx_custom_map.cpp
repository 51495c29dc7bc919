// onnx_custom_map.cpp: what a framework plugin's parse function sees of an ONNX node
// (ops::OnnxNodeView): the node's fields, and its attributes as the JSON text CANN's ONNX parser
// hands to ParseParamsByOperatorFn functions in the operator's "attribute" attribute. Its form,
// from CANN's parser (Ascend/parser: message2operator.cc, pb2json.cc), kept because plugins parse
// it: {"attribute": [...]} with each AttributeProto as an object of its set fields, keys in
// alphabetical order, indented by two spaces; enums (the attribute's "type") as numbers; a
// single float as a string ("%g", six significant digits, a number when that takes ten or more
// characters), floats in lists as numbers; a single bytes field (s) C-escaped, strings in lists
// as they are; a tensor (t, tensors) as an object the same way. Graph, sparse-tensor and
// type-proto attributes are left out here (CANN writes them too).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "asc/support/strings.h"
#include "onnx_import.h"

namespace asc::frontend::onnx_import {
namespace {

// A JSON string's text: the bytes that are UTF-8, quoted (bytes that are not are left out, as
// CANN's dump(..., error_handler_t::ignore) leaves them).
std::string jsonString(const std::string& s) {
  std::string utf8;
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t len = c < 0x80         ? 1
                       : (c >> 5) == 6  ? 2
                       : (c >> 4) == 14 ? 3
                       : (c >> 3) == 30 ? 4
                                        : 0;
    bool ok = len > 0 && i + len <= s.size();
    for (size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 2;
    if (ok) utf8.append(s, i, len);
    i += ok ? len : 1;
  }
  return jsonQuote(utf8);
}

// protobuf's CEscape: what CANN writes for a single bytes field.
std::string cEscape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\'':
        out += "\\'";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

// A double as JSON writes it: the fewest significant digits that read back to it, ".0" on a
// whole number.
std::string jsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[40];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

std::string indentText(int level) { return std::string(size_t(level) * 2, ' '); }

// One JSON object being written: its members by key (written in key order, as CANN's
// std::map-backed JSON writes them), each value already text at its nesting level.
class Object {
 public:
  explicit Object(int level) : level_(level) {}
  int level() const { return level_; }
  void set(const std::string& key, std::string text) { members_[key] = std::move(text); }
  template <typename Items, typename Write>
  void list(const std::string& key, const Items& items, Write write) {
    if (items.empty()) return;
    std::string s = "[\n";
    int i = 0;
    for (const auto& item : items) {
      s += indentText(level_ + 2) + write(item) + (++i < int(items.size()) ? ",\n" : "\n");
    }
    members_[key] = s + indentText(level_ + 1) + "]";
  }
  std::string text() const {
    if (members_.empty()) return "null";  // nothing set (CANN writes an empty message so)
    std::string s = "{\n";
    size_t i = 0;
    for (const auto& [key, value] : members_)
      s += indentText(level_ + 1) + jsonString(key) + ": " + value +
           (++i < members_.size() ? ",\n" : "\n");
    return s + indentText(level_) + "}";
  }

 private:
  int level_;
  std::map<std::string, std::string> members_;
};

// A single float: "%g" as a string when it fits CANN's ten-character buffer, else a number.
std::string singleFloat(float v) {
  char buf[32];
  const int n = std::snprintf(buf, sizeof buf, "%g", double(v));
  return n >= 0 && n < 10 ? jsonString(buf) : jsonNumber(v);
}

std::string tensorText(const onnx::TensorProto& t, int level) {
  Object o(level);
  auto num = [](auto v) { return std::to_string(v); };
  auto flt = [](float v) { return jsonNumber(v); };
  auto str = [](const std::string& v) { return jsonString(v); };
  o.list("dims", t.dims(), num);
  if (t.has_data_type()) o.set("data_type", std::to_string(t.data_type()));
  o.list("float_data", t.float_data(), flt);
  o.list("int32_data", t.int32_data(), num);
  o.list("string_data", t.string_data(), str);
  o.list("int64_data", t.int64_data(), num);
  if (t.has_name()) o.set("name", jsonString(t.name()));
  if (t.has_doc_string()) o.set("doc_string", jsonString(t.doc_string()));
  if (t.has_raw_data()) o.set("raw_data", jsonString(cEscape(t.raw_data())));
  // CANN's writer has no case for doubles: a list of them is a list of nulls.
  o.list("double_data", t.double_data(), [](double) { return std::string("null"); });
  o.list("uint64_data", t.uint64_data(), num);
  if (t.has_data_location()) o.set("data_location", std::to_string(t.data_location()));
  o.list("external_data", t.external_data(), [&](const onnx::StringStringEntryProto& e) {
    Object kv(level + 2);
    if (e.has_key()) kv.set("key", jsonString(e.key()));
    if (e.has_value()) kv.set("value", jsonString(e.value()));
    return kv.text();
  });
  return o.text();
}

// An AttributeProto's fields. Graph, sparse-tensor and type-proto attributes are left out
// (asc-tools' custom operators take none).
std::string attributeText(const onnx::AttributeProto& a, int level) {
  Object o(level);
  auto num = [](auto v) { return std::to_string(v); };
  if (a.has_name()) o.set("name", jsonString(a.name()));
  if (a.has_ref_attr_name()) o.set("ref_attr_name", jsonString(a.ref_attr_name()));
  if (a.has_doc_string()) o.set("doc_string", jsonString(a.doc_string()));
  if (a.has_type()) o.set("type", std::to_string(a.type()));
  if (a.has_f()) o.set("f", singleFloat(a.f()));
  if (a.has_i()) o.set("i", std::to_string(a.i()));
  if (a.has_s()) o.set("s", jsonString(cEscape(a.s())));
  if (a.has_t() && a.t().ByteSizeLong()) o.set("t", tensorText(a.t(), level + 1));
  o.list("floats", a.floats(), [](float v) { return jsonNumber(v); });
  o.list("ints", a.ints(), num);
  o.list("strings", a.strings(), [](const std::string& v) { return jsonString(v); });
  o.list("tensors", a.tensors(), [&](const onnx::TensorProto& t) {
    return t.ByteSizeLong() ? tensorText(t, level + 2) : std::string("null");
  });
  return o.text();
}

}  // namespace

std::string onnxAttributeJson(const onnx::NodeProto& np) {
  Object o(0);
  o.list("attribute", np.attribute(), [](const onnx::AttributeProto& a) {
    return a.ByteSizeLong() ? attributeText(a, 2) : std::string("null");
  });
  return o.text();
}

ops::OnnxNodeView onnxNodeView(const onnx::NodeProto& np, const ir::Attrs* attrs) {
  ops::OnnxNodeView v;
  v.name = np.name();
  v.op_type = np.op_type();
  v.domain = np.domain();
  v.doc_string = np.doc_string();
  v.inputs.assign(np.input().begin(), np.input().end());
  v.outputs.assign(np.output().begin(), np.output().end());
  if (np.attribute_size() > 0) v.attribute_json = onnxAttributeJson(np);
  v.attrs = attrs;
  return v;
}

}  // namespace asc::frontend::onnx_import
