// json.cpp: ModelDef -> JSON for atc --mode=1, through protobuf reflection: field names as keys
// in name order, enums by name, maps as lists of {"key": ..., "value": ...}, bytes as text when
// printable (base64 otherwise). Weight bytes live in WEIGHTS_DATA and are not repeated here.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <algorithm>

#include "asc/om/om_file.h"
#include "asc/support/strings.h"
#include "asc/support/file.h"
#include "format.h"
#include "ge_ir.pb.h"

namespace asc::om {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

bool isPrintableUtf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = s[i];
    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') return false;
    int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0 || i + extra >= s.size() + (extra == 0 ? 1 : 0)) return false;
    for (int k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    i += 1 + extra;
  }
  return true;
}

std::string base64(const std::string& s) {
  static const char* tbl = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < s.size(); i += 3) {
    uint32_t v = (uint8_t(s[i]) << 16) | (uint8_t(s[i + 1]) << 8) | uint8_t(s[i + 2]);
    for (int k = 3; k >= 0; --k) out += tbl[(v >> (6 * k)) & 63];
  }
  if (i + 1 == s.size()) {
    uint32_t v = uint8_t(s[i]) << 16;
    out += tbl[(v >> 18) & 63];
    out += tbl[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == s.size()) {
    uint32_t v = (uint8_t(s[i]) << 16) | (uint8_t(s[i + 1]) << 8);
    out += tbl[(v >> 18) & 63];
    out += tbl[(v >> 12) & 63];
    out += tbl[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

class JsonWriter {
 public:
  std::string out;
  void message(const Message& m, int depth, bool all_fields = false) {
    const Reflection* r = m.GetReflection();
    std::vector<const FieldDescriptor*> fields;
    if (all_fields) {
      const auto* d = m.GetDescriptor();
      for (int i = 0; i < d->field_count(); ++i) fields.push_back(d->field(i));
    } else {
      r->ListFields(m, &fields);
    }
    std::sort(fields.begin(), fields.end(), [](auto* a, auto* b) { return a->name() < b->name(); });
    out += "{";
    bool first = true;
    for (const FieldDescriptor* f : fields) {
      out += first ? "\n" : ",\n";
      first = false;
      indent(depth + 1);
      out += jsonQuote(f->name());
      out += ": ";
      if (f->is_repeated()) {
        int n = r->FieldSize(m, f);
        std::vector<int> order(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) order[i] = i;
        if (f->is_map()) {  // protobuf maps have no order; show them sorted by key
          const FieldDescriptor* key = f->message_type()->map_key();
          std::vector<std::string> keys;
          for (int i = 0; i < n; ++i) {
            const Message& e = r->GetRepeatedMessage(m, f, i);
            keys.push_back(e.GetReflection()->GetString(e, key));
          }
          std::sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });
        }
        out += "[";
        for (int k = 0; k < n; ++k) {
          out += k ? ",\n" : "\n";
          indent(depth + 2);
          element(m, f, order[k], depth + 2);
        }
        out += "\n";
        indent(depth + 1);
        out += "]";
      } else {
        element(m, f, -1, depth + 1);
      }
    }
    if (!first) {
      out += "\n";
      indent(depth);
    }
    out += "}";
  }

 private:
  void indent(int d) { out.append(static_cast<size_t>(d) * 2, ' '); }
  void element(const Message& m, const FieldDescriptor* f, int i, int depth) {
    const Reflection* r = m.GetReflection();
    const bool rep = i >= 0;
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
        out += std::to_string(rep ? r->GetRepeatedInt32(m, f, i) : r->GetInt32(m, f));
        break;
      case FieldDescriptor::CPPTYPE_INT64:
        out += std::to_string(rep ? r->GetRepeatedInt64(m, f, i) : r->GetInt64(m, f));
        break;
      case FieldDescriptor::CPPTYPE_UINT32:
        out += std::to_string(rep ? r->GetRepeatedUInt32(m, f, i) : r->GetUInt32(m, f));
        break;
      case FieldDescriptor::CPPTYPE_UINT64:
        out += std::to_string(rep ? r->GetRepeatedUInt64(m, f, i) : r->GetUInt64(m, f));
        break;
      case FieldDescriptor::CPPTYPE_FLOAT:
        out += fmt::format("{}", rep ? r->GetRepeatedFloat(m, f, i) : r->GetFloat(m, f));
        break;
      case FieldDescriptor::CPPTYPE_DOUBLE:
        out += fmt::format("{}", rep ? r->GetRepeatedDouble(m, f, i) : r->GetDouble(m, f));
        break;
      case FieldDescriptor::CPPTYPE_BOOL:
        out += (rep ? r->GetRepeatedBool(m, f, i) : r->GetBool(m, f)) ? "true" : "false";
        break;
      case FieldDescriptor::CPPTYPE_ENUM: {
        const auto* e = rep ? r->GetRepeatedEnum(m, f, i) : r->GetEnum(m, f);
        out += jsonQuote(e->name());
        break;
      }
      case FieldDescriptor::CPPTYPE_STRING: {
        std::string s = rep ? r->GetRepeatedString(m, f, i) : r->GetString(m, f);
        if (f->type() == FieldDescriptor::TYPE_BYTES && !isPrintableUtf8(s))
          out += jsonQuote(base64(s));
        else
          out += jsonQuote(s);
        break;
      }
      case FieldDescriptor::CPPTYPE_MESSAGE: {
        const Message& sub = rep ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f);
        // Map entries always show both key and value.
        message(sub, depth, f->is_map());
        break;
      }
    }
  }
};

}  // namespace

Result<std::string> omToJson(const std::string& path, Verify verify) {
  // Reuse the validating reader for the container, then render the raw ModelDef.
  ASC_TRY(auto file, MappedFile::open(path));
  ASC_TRY(OmSummary s, readOmSummary(path, verify));
  const PartitionInfo* p = nullptr;
  for (const auto& part : s.partitions)
    if (part.type == kModelDef) p = &part;
  ge::proto::ModelDef m;
  if (!p || !m.ParseFromArray(file->data() + p->offset, static_cast<int>(p->size)))
    return Status::error(ErrorCode::ModelLoadFailed,
                         "Failed to load the model from {}: bad MODEL_DEF", path);
  JsonWriter w;
  w.message(m, 0);
  w.out += "\n";
  return w.out;
}

}  // namespace asc::om
