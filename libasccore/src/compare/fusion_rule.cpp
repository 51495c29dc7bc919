// fusion_rule.cpp: reads the atc --mode=1 JSON with protobuf's JSON parser into a generic
// google.protobuf.Value (no hand-written JSON parsing), then walks graph[0].op[*].
#include "asc/compare/fusion_rule.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cctype>

#include "asc/support/file.h"

namespace asc::compare {
namespace {

using google::protobuf::Value;

const Value* field(const Value& v, const char* key) {
  if (!v.has_struct_value()) return nullptr;
  const auto& f = v.struct_value().fields();
  auto it = f.find(key);
  return it == f.end() ? nullptr : &it->second;
}

std::string str(const Value* v) { return v && v->has_string_value() ? v->string_value() : ""; }

// The deepest [ / { nesting outside strings. protobuf's JSON parser refuses more than 100
// levels anyway, but only after time quadratic in the depth (minutes for 100000 '[').
int nestingDepth(const std::string& text) {
  int depth = 0, max_depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return max_depth;
}

}  // namespace

Result<FusionRule> readFusionRule(const std::string& path) {
  ASC_TRY(auto file, MappedFile::open(path));
  std::string text(reinterpret_cast<const char*>(file->data()), file->size());
  constexpr int kMaxDepth = 64;
  if (nestingDepth(text) > kMaxDepth)
    return Status::error(ErrorCode::JsonParseFailed,
                         "the fusion rule file '{}' nests arrays and objects more than {} deep; "
                         "give the output of 'atc --mode=1 --om=MODEL.om --json=FILE.json'",
                         path, kMaxDepth);
  Value root;
  auto st = google::protobuf::util::JsonStringToMessage(text, &root);
  if (!st.ok())
    return Status::error(ErrorCode::JsonParseFailed,
                         "the fusion rule file '{}' is not valid JSON ({}); give the output of "
                         "'atc --mode=1 --om=MODEL.om --json=FILE.json'",
                         path, std::string(st.message()));
  const Value* graph = field(root, "graph");
  const Value* g0 = nullptr;
  if (graph && graph->has_list_value() && graph->list_value().values_size() > 0)
    g0 = &graph->list_value().values(0);
  const Value* ops = g0 ? field(*g0, "op") : nullptr;
  if (!ops || !ops->has_list_value())
    return Status::error(ErrorCode::JsonParseFailed,
                         "the fusion rule file '{}' has no graph[0].op list; give the output of "
                         "'atc --mode=1 --om=MODEL.om --json=FILE.json'",
                         path);
  FusionRule rule;
  for (const Value& op : ops->list_value().values()) {
    FusionOp f;
    f.name = str(field(op, "name"));
    f.type = str(field(op, "type"));
    const Value* attrs = field(op, "attr");
    if (attrs && attrs->has_list_value()) {
      for (const Value& a : attrs->list_value().values()) {
        if (str(field(a, "key")) != "_datadump_original_op_names") continue;
        const Value* v = field(a, "value");
        const Value* list = v ? field(*v, "list") : nullptr;
        const Value* s = list ? field(*list, "s") : nullptr;
        if (s && s->has_list_value())
          for (const Value& n : s->list_value().values()) f.original_names.push_back(str(&n));
      }
    }
    if (!f.name.empty()) rule.ops.push_back(std::move(f));
  }
  return rule;
}

}  // namespace asc::compare
