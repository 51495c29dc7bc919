// onnx_importer.cpp: ONNX ModelProto -> ir::Graph (the graph: inputs, nodes, attributes,
// outputs); tensors are decoded in onnx_tensor.cpp, atc --mode=3 is onnx_precheck.cpp.
// Initializer bytes are not copied: a model read from a file is parsed without its initializers'
// raw_data, which is referenced in the mapped file (RawDataStripper); from memory, raw_data is
// referenced inside the parsed message (kept alive by a shared owner); external data is mapped.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <optional>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "asc/frontend/onnx.h"
#include "asc/ops/plugin.h"
#include "asc/ops/registry.h"
#include "asc/support/file.h"
#include "asc/support/log.h"
#include "frontend/onnx/onnx_import.h"
#include "frontend/onnx/onnx_versions.h"
#include "onnx/onnx.pb.h"
#include "support/protobuf_log.h"

namespace asc::frontend {
using namespace onnx_import;
namespace {

constexpr int kMinOpset = kMinOnnxOpset;
constexpr int kMaxOpset = kMaxOnnxOpset;

// The fields of ModelProto, GraphProto and TensorProto the zero-copy import walks to
// (onnx.proto's field numbers).
constexpr uint32_t kModelGraph = 7, kGraphInitializer = 5, kTensorRawData = 9;

// A serialized ModelProto without the raw_data of its graph's initializers, each one's place in
// the input recorded instead (in initializer order, as protobuf merges repeated occurrences).
// Protobuf copies every bytes field it parses; ResNet-50's 100 MB of weights would be copied
// (and faulted in) only to be read once. Only the tags and lengths on the way to raw_data are
// read here (protobuf's own CodedInputStream and WireFormatLite); every other field is copied
// through unread, for the parser. False when the bytes do not walk as protobuf: the caller
// then parses them whole, and protobuf reports what is wrong.
struct RawSpan {
  size_t initializer;
  const uint8_t* data;
  size_t size;
};
class RawDataStripper {
 public:
  std::vector<RawSpan> spans;

  bool model(const uint8_t* p, size_t n, std::string* out) {
    return message(p, n, out, [&](uint32_t field, const uint8_t* q, size_t len, std::string* o) {
      if (field != kModelGraph) return copy;
      return message(q, len, o,
                     [&](uint32_t f, const uint8_t* r, size_t l, std::string* oo) {
                       if (f != kGraphInitializer) return copy;
                       const size_t index = initializers_++;
                       return message(r, l, oo,
                                      [&](uint32_t tf, const uint8_t* d, size_t dl, std::string*) {
                                        if (tf != kTensorRawData) return copy;
                                        spans.push_back({index, d, dl});
                                        return dropped;
                                      })
                                  ? rewritten
                                  : failed;
                     })
                 ? rewritten
                 : failed;
    });
  }

 private:
  enum Action { copy, rewritten, dropped, failed };
  size_t initializers_ = 0;

  // Walks the message [p, p + n): each length-delimited field goes to `inner`, which copies it
  // through (copy), writes its own rewritten version to the output (rewritten), drops it, or
  // fails; every other field is copied through.
  template <typename Inner>
  bool message(const uint8_t* p, size_t n, std::string* out, Inner inner) {
    using google::protobuf::internal::WireFormatLite;
    if (n > static_cast<size_t>(INT_MAX)) return false;
    google::protobuf::io::CodedInputStream in(p, static_cast<int>(n));
    for (;;) {
      const int start = in.CurrentPosition();
      const uint32_t tag = in.ReadTag();
      if (tag == 0) return in.CurrentPosition() == static_cast<int>(n);  // the end (or a 0 tag)
      if (WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
        uint32_t len = 0;
        if (!in.ReadVarint32(&len)) return false;
        const int body = in.CurrentPosition();
        if (len > n - static_cast<size_t>(body) || !in.Skip(static_cast<int>(len))) return false;
        std::string sub;
        switch (inner(WireFormatLite::GetTagFieldNumber(tag), p + body, len, &sub)) {
          case copy:
            out->append(reinterpret_cast<const char*>(p + start), body - start + len);
            break;
          case rewritten: {
            google::protobuf::io::StringOutputStream s(out);
            google::protobuf::io::CodedOutputStream o(&s);
            o.WriteTag(tag);
            o.WriteVarint32(static_cast<uint32_t>(sub.size()));
            o.WriteRaw(sub.data(), static_cast<int>(sub.size()));
            break;
          }
          case dropped:
            break;
          case failed:
            return false;
        }
        continue;
      }
      if (!WireFormatLite::SkipField(&in, tag)) return false;
      out->append(reinterpret_cast<const char*>(p + start), in.CurrentPosition() - start);
    }
  }
};

Result<ir::AttrValue> attrFromProto(ImportState& st, const onnx::AttributeProto& a,
                                    const std::string& node) {
  switch (a.type()) {
    case onnx::AttributeProto::FLOAT:
      return ir::AttrValue(a.f());
    case onnx::AttributeProto::INT:
      return ir::AttrValue(static_cast<int64_t>(a.i()));
    case onnx::AttributeProto::STRING:
      return ir::AttrValue(a.s());
    case onnx::AttributeProto::FLOATS:
      return ir::AttrValue(std::vector<float>(a.floats().begin(), a.floats().end()));
    case onnx::AttributeProto::INTS:
      return ir::AttrValue(std::vector<int64_t>(a.ints().begin(), a.ints().end()));
    case onnx::AttributeProto::STRINGS:
      return ir::AttrValue(std::vector<std::string>(a.strings().begin(), a.strings().end()));
    case onnx::AttributeProto::TENSOR: {
      ASC_TRY(ir::Tensor t, tensorFromProto(st, a.t()));
      return ir::AttrValue(std::move(t));
    }
    default:
      return Status::error(ErrorCode::UnsupportedOp,
                           "node '{}': attribute '{}' has type {} (graphs, sparse tensors and "
                           "type protos are not supported)",
                           node, a.name(), static_cast<int>(a.type()));
  }
}

Result<ir::DType> valueInfoType(const onnx::ValueInfoProto& vi) {
  if (!vi.type().has_tensor_type())
    return Status::error(ErrorCode::NotImplemented,
                         "graph input/output '{}' is a sequence, map or optional; only tensors "
                         "are supported",
                         vi.name());
  ir::DType t = ir::dtypeFromOnnx(vi.type().tensor_type().elem_type());
  if (t == ir::DType::Undefined)
    return Status::error(ErrorCode::NotImplemented,
                         "graph input '{}' has ONNX element type {} (strings, complex and 8-bit "
                         "floats are not supported)",
                         vi.name(), vi.type().tensor_type().elem_type());
  return t;
}

// Inputs: model shape with -1 for symbolic/unknown dims, and the override if any.
Status applyInputShape(ir::Value* v, const onnx::ValueInfoProto& vi,
                       const std::map<std::string, ir::Shape>& overrides, bool allow_dynamic) {
  ir::Shape model_shape;
  bool has_shape = vi.type().tensor_type().has_shape();
  std::vector<std::string> symbolic;
  if (has_shape)
    for (const auto& d : vi.type().tensor_type().shape().dim()) {
      if (d.has_dim_value() && d.dim_value() < -1)  // -1: some exporters' "dynamic"
        return invalid(
            fmt::format("input '{}' declares dim {} at axis {}; a dim is >= 0, or "
                        "symbolic (dim_param); fix the model's input",
                        v->name, d.dim_value(), model_shape.size()));
      if (d.has_dim_value() && d.dim_value() >= 0) {
        model_shape.push_back(d.dim_value());
      } else {
        model_shape.push_back(-1);
        symbolic.push_back(d.has_dim_param() ? d.dim_param() : "?");
      }
    }
  auto it = overrides.find(v->name);
  if (it != overrides.end()) {
    const ir::Shape& want = it->second;
    if (has_shape && want.size() != model_shape.size())
      return Status::error(ErrorCode::InputShapeMismatch,
                           "--input_shape gives input '{}' {} dims [{}], the model's input has {} "
                           "dims [{}]; give exactly {} dims",
                           v->name, want.size(), ir::shapeToString(want), model_shape.size(),
                           ir::shapeToString(model_shape), model_shape.size());
    for (size_t i = 0; i < want.size(); ++i) {
      if (want[i] == -1 && allow_dynamic) continue;
      if (want[i] == -1)
        return Status::error(ErrorCode::NotImplemented,
                             "--input_shape gives input '{}' a dynamic dim (-1) at position {}; "
                             "dynamic shapes are not supported yet, give a fixed size",
                             v->name, i);
      if (want[i] <= 0)
        return Status::error(ErrorCode::InputShapeMismatch,
                             "--input_shape gives input '{}' the dim {} at position {}; dims must "
                             "be positive integers",
                             v->name, want[i], i);
      if (has_shape && model_shape[i] > 0 && model_shape[i] != want[i])
        ASC_LOG_INFO("input '{}': dim {} overridden from {} to {}", v->name, i, model_shape[i],
                     want[i]);
    }
    v->shape = want;
    return Status::ok();
  }
  if (!has_shape)
    return Status::error(ErrorCode::InputShapeMismatch,
                         "input '{}' has no shape in the model; give it with "
                         "--input_shape=\"{}:d0,d1,...\"",
                         v->name, v->name);
  if (!symbolic.empty())
    return Status::error(ErrorCode::InputShapeMismatch,
                         "input '{}' has dynamic dims [{}] ({}); give fixed sizes with "
                         "--input_shape=\"{}:d0,d1,...\" (-1 or a range such as 1~8 keeps a dim "
                         "dynamic)",
                         v->name, ir::shapeToString(model_shape), fmt::join(symbolic, ","),
                         v->name);
  v->shape = model_shape;
  return Status::ok();
}

// Node order: ONNX requires a topological order, but some writers break it; sort (Kahn) so the
// IR's invariant holds, keeping the file order among ready nodes.
Result<std::vector<int>> topoOrder(const onnx::GraphProto& g,
                                   const std::unordered_set<std::string>& available) {
  const int n = g.node_size();
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < n; ++i)
    for (const auto& o : g.node(i).output())
      if (!o.empty()) producer[o] = i;
  std::vector<int> missing(n, 0);
  std::vector<std::vector<int>> users(n);
  for (int i = 0; i < n; ++i)
    for (const auto& in : g.node(i).input()) {
      if (in.empty() || available.count(in)) continue;
      auto it = producer.find(in);
      if (it == producer.end()) {
        const auto& nd = g.node(i);
        return invalid(
            fmt::format("node '{}' ({}) uses '{}', which no node, input or "
                        "initializer defines",
                        nd.name(), nd.op_type(), in));
      }
      ++missing[i];
      users[it->second].push_back(i);
    }
  std::vector<int> order;
  std::vector<int> ready;
  for (int i = n - 1; i >= 0; --i)
    if (missing[i] == 0) ready.push_back(i);
  std::vector<bool> done(n, false);
  // Simple stable variant: repeatedly take the lowest-index ready node.
  std::make_heap(ready.begin(), ready.end(), std::greater<int>());
  while (!ready.empty()) {
    std::pop_heap(ready.begin(), ready.end(), std::greater<int>());
    int i = ready.back();
    ready.pop_back();
    order.push_back(i);
    for (int u : users[i])
      if (--missing[u] == 0) {
        ready.push_back(u);
        std::push_heap(ready.begin(), ready.end(), std::greater<int>());
      }
  }
  if (static_cast<int>(order.size()) != n) return invalid("the graph has a cycle");
  return order;
}

Result<ir::Graph> importModel(ImportState& st, const OnnxImportOptions& opts) {
  const onnx::ModelProto& m = *st.model;
  ir::Graph g;
  g.opset = -1;
  for (const auto& op : m.opset_import())
    if (op.domain().empty() || op.domain() == "ai.onnx") g.opset = static_cast<int>(op.version());
  if (g.opset < 0) {
    std::vector<std::string> domains;
    for (const auto& op : m.opset_import()) domains.push_back(op.domain());
    return Status::error(ErrorCode::UnsupportedOp,
                         "the model uses only operator domains asc-tools does not support ({}); "
                         "it needs the default ONNX domain",
                         fmt::join(domains, ", "));
  }
  if (g.opset < kMinOpset || g.opset > kMaxOpset)
    return Status::error(ErrorCode::NotImplemented,
                         "the model uses ONNX opset {}; asc-tools supports opsets {} to {}; "
                         "re-export the model at a supported opset",
                         g.opset, kMinOpset, kMaxOpset);
  const onnx::GraphProto& gp = m.graph();
  g.name = gp.name().empty() ? "graph" : gp.name();
  ASC_TRY(auto overrides, parseInputShapes(opts.input_shape));

  std::unordered_set<std::string> available;
  std::unordered_map<std::string, ir::Value*> by_name;
  for (const auto& init : gp.initializer()) {
    if (init.name().empty()) return invalid("an initializer has no name");
    ASC_TRY(ir::Tensor t, tensorFromProto(st, init));
    ir::Value* v = g.addConstant(init.name(), t);
    by_name[init.name()] = v;
    available.insert(init.name());
  }
  std::unordered_set<std::string> input_names;
  for (const auto& vi : gp.input()) {
    if (!input_names.insert(vi.name()).second)
      return invalid(
          fmt::format("graph input '{}' is declared twice; input names must be unique", vi.name()));
    if (available.count(vi.name())) continue;  // IR < 4 lists initializers as inputs too
    if (vi.name().empty()) return invalid("a graph input has no name");
    ir::Value* v = g.addValue(vi.name());
    ASC_TRY(v->dtype, valueInfoType(vi));
    ASC_RETURN_IF_ERROR(applyInputShape(v, vi, overrides, opts.allow_dynamic));
    if (std::count(v->shape.begin(), v->shape.end(), -1)) {
      g.dynamic = true;  // a dim known only at run time
    } else if (std::string why = ir::shapeLimitReason(v->shape, v->dtype); !why.empty())
      return Status::error(ErrorCode::ModelTooLarge, "graph input '{}': {}", v->name, why);
    if (v->shape.size() == 4 && opts.input_format == "NCHW")
      v->format = "NCHW";
    else if (v->shape.size() == 5 && opts.input_format == "NCDHW")
      v->format = "NCDHW";
    else
      v->format = "ND";
    g.inputs.push_back(v);
    by_name[vi.name()] = v;
    available.insert(vi.name());
  }
  for (const auto& [name, shape] : overrides)
    if (!g.findValue(name) || g.findValue(name)->isConstant()) {
      std::vector<std::string> names;
      for (auto* v : g.inputs) names.push_back(v->name);
      return Status::error(ErrorCode::InputShapeMismatch,
                           "--input_shape names input '{}', which the model does not have; its "
                           "inputs are: {}",
                           name, fmt::join(names, ", "));
    }

  ASC_TRY(std::vector<int> order, topoOrder(gp, available));
  for (int idx : order) {
    const onnx::NodeProto& np = gp.node(idx);
    std::string op_type = np.op_type();
    bool mapped = false;
    // A plugin that takes this type over at the model's opset (before the built-in reading).
    const ops::OnnxCustomMapping* custom =
        ops::findOnnxCustomMapping(np.domain(), opsetOf(m, np.domain()), op_type);
    if (custom) {
      op_type = custom->custom_type;
      mapped = true;
    } else if (auto renamed = opts.op_name_map.find(op_type); renamed != opts.op_name_map.end()) {
      const ops::OpDef* by_cann = ops::lookupByCann(renamed->second);
      op_type = by_cann && !ops::lookup(renamed->second) ? by_cann->name() : renamed->second;
      mapped = true;
    }
    if (!mapped && !np.domain().empty() && np.domain() != "ai.onnx" &&
        !customDomainOp(np.domain(), op_type))
      return Status::error(ErrorCode::UnsupportedOp,
                           "unsupported operator '{}' of domain '{}' (node '{}')", np.op_type(),
                           np.domain(), np.name().empty() ? "(unnamed)" : np.name());
    std::string name = np.name().empty() ? fmt::format("{}_{}", op_type, idx) : np.name();
    const ops::OpDef* def = ops::lookup(op_type);
    if (!def) {
      const std::string looked = ops::pluginSearchPath();
      return Status::error(ErrorCode::UnsupportedOp,
                           "unsupported operator '{}' (node '{}'): no mapping for this ONNX op "
                           "type; see 'atc --list_ops' for the supported set; a custom operator "
                           "comes from --op_plugin_path, ASCEND_CUSTOM_OPP_PATH or a package in "
                           "$ASCEND_OPP_PATH/vendors (custom operators looked for in: {})",
                           op_type, name, looked.empty() ? "nothing" : looked);
    }
    if (def->isInternal())
      return Status::error(ErrorCode::UnsupportedOp,
                           "operator '{}' (node '{}') is no ONNX operator: asc-tools makes it in a "
                           "fusion; export the model with standard ops",
                           op_type, name);
    if (!custom && g.opset < def->onnxSince())
      return Status::error(ErrorCode::UnsupportedOp,
                           "operator '{}' (node '{}'): asc-tools reads it from opset {} on (it "
                           "does not exist before, or has another form), the model uses opset {}; "
                           "re-export the model at a later opset",
                           op_type, name, def->onnxSince(), g.opset);
    if (!custom) ASC_RETURN_IF_ERROR(checkLaterOnnxVersion(np, op_type, name, g.opset));
    std::vector<ir::Value*> ins;
    for (const auto& in : np.input()) {
      if (in.empty()) {
        ins.push_back(nullptr);
        continue;
      }
      ins.push_back(by_name.at(in));
    }
    std::vector<ir::Value*> outs;
    int last = np.output_size() - 1;
    while (last >= 0 && np.output(last).empty()) --last;
    for (int i = 0; i <= last; ++i) {
      const std::string& o = np.output(i);
      if (!o.empty() && by_name.count(o))
        return invalid(
            fmt::format("node '{}' ({}) defines '{}', which is already defined", name, op_type, o));
      ir::Value* v = g.addValue(o.empty() ? fmt::format("{}:unused{}", name, i) : o);
      if (!o.empty()) by_name[o] = v;
      outs.push_back(v);
    }
    ir::Node* node = g.addNode(op_type, name, std::move(ins), std::move(outs));
    if (node->name != name) return invalid(fmt::format("node name '{}' is used twice", name));
    node->original_names = {name};
    for (const auto& a : np.attribute()) {
      ASC_TRY(ir::AttrValue v, attrFromProto(st, a, name));
      node->attrs.set(a.name(), std::move(v));
    }
    if (custom && custom->parse) {
      auto parsed = custom->parse(onnxNodeView(np, &node->attrs));
      if (!parsed.isOk())
        return parsed.status().withContext(
            fmt::format("node '{}' ({}): the operator plugin's parse function for {} ({})", name,
                        np.op_type(), custom->custom_type, custom->origin));
      node->attrs = std::move(*parsed);
    }
    mapLaterOnnxAttrs(op_type, g.opset, &node->attrs);
  }
  for (const auto& vi : gp.output()) {
    auto it = by_name.find(vi.name());
    if (it == by_name.end())
      return invalid(fmt::format("graph output '{}' is not produced by any node", vi.name()));
    g.outputs.push_back(it->second);
  }
  if (g.outputs.empty()) return invalid("the graph has no outputs");

  ops::InferOptions io;
  io.fold_constants = opts.fold_constants;
  // A dynamic graph: what is known now is inferred and folded, the rest at run time.
  auto keepDynamic = [&](ir::Graph& dyn) -> Result<ir::Graph> {
    dyn.dynamic = true;
    ops::InferOptions partial = io;
    partial.partial = true;
    ASC_RETURN_IF_ERROR(ops::inferGraph(dyn, partial));
    ASC_RETURN_IF_ERROR(ir::verify(dyn));
    return std::move(dyn);
  };
  if (g.dynamic) {
    ASC_LOG_INFO("the model has dynamic input dims: its shapes are inferred at run time");
    return keepDynamic(g);
  }
  const ir::Value* wanted = nullptr;
  io.needs_value = &wanted;
  // The graph as imported, kept in case a shape turns out to depend on a run-time value.
  std::optional<ir::Graph> imported;
  if (opts.allow_dynamic) imported = g.clone();
  if (Status st = ops::inferGraph(g, io); !st.isOk()) {
    if (!imported || !wanted || wanted->isConstant()) return st;
    ASC_LOG_INFO(
        "shapes are inferred at run time: '{}' is computed at run time and {} (the first "
        "node that needs its value)",
        wanted->name, st.message());
    return keepDynamic(*imported);
  }
  for (const auto& v : g.values())
    if (!v->isConstant() && v->format == "ND" && v->shape.size() == 4 && v->producer)
      v->format = "NCHW";
  ASC_RETURN_IF_ERROR(ir::verify(g));
  return g;
}

}  // namespace

Result<std::map<std::string, ir::Shape>> parseInputShapes(const std::string& text) {
  std::map<std::string, ir::Shape> out;
  size_t pos = 0;
  const char* sample = "\"input:1,3,224,224;input2:1,10\"";
  while (pos <= text.size() && !text.empty()) {
    size_t end = text.find(';', pos);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) {
      if (end == text.size()) break;
      continue;
    }
    size_t colon = item.rfind(':');
    if (colon == std::string::npos || colon == 0)
      return Status::error(ErrorCode::InputShapeFormat,
                           "--input_shape item '{}' is not name:dims; write it like {}", item,
                           sample);
    std::string name = item.substr(0, colon);
    std::string dims = item.substr(colon + 1);
    ir::Shape shape;
    size_t p = 0;
    while (p < dims.size()) {
      size_t c = dims.find(',', p);
      if (c == std::string::npos) c = dims.size();
      std::string d = dims.substr(p, c - p);
      char* endp = nullptr;
      errno = 0;
      long long v = std::strtoll(d.c_str(), &endp, 10);
      if (d.empty() || *endp != '\0' || errno != 0)
        return Status::error(ErrorCode::InputShapeFormat,
                             "--input_shape: '{}' in the dims of input '{}' is not an integer; "
                             "write it like {}",
                             d, name, sample);
      shape.push_back(v);
      p = c + 1;
      if (c == dims.size() - 1)
        return Status::error(ErrorCode::InputShapeFormat,
                             "--input_shape: the dims of input '{}' end with ','", name);
    }
    if (out.count(name))
      return Status::error(ErrorCode::InputShapeFormat, "--input_shape names input '{}' twice",
                           name);
    out[name] = shape;
    if (end == text.size()) break;
  }
  return out;
}

namespace {

// importOnnxBytes, and with `owner` (which keeps `data` alive) the zero-copy import: the main
// graph's initializers reference their raw_data where it lies in `data`.
Result<ir::Graph> importBytes(const void* data, size_t size, const std::string& base_dir,
                              const OnnxImportOptions& opts, std::shared_ptr<const void> owner) {
  if (size > static_cast<size_t>(INT_MAX))
    return Status::error(ErrorCode::ModelTooLarge,
                         "the ONNX file is {} bytes; protobuf messages are limited to 2 GB, so "
                         "store the weights as external data (onnx.save(..., "
                         "save_as_external_data=True))",
                         size);
  routeProtobufLogs();
  ImportState st;
  st.model = std::make_shared<onnx::ModelProto>();
  st.base_dir = base_dir;
  const auto* bytes = static_cast<const uint8_t*>(data);
  std::string stripped;
  RawDataStripper strip;
  if (owner && strip.model(bytes, size, &stripped) && !strip.spans.empty()) {
    bytes = reinterpret_cast<const uint8_t*>(stripped.data());
    size = stripped.size();
  } else {
    strip.spans.clear();
  }
  google::protobuf::io::CodedInputStream in(bytes, static_cast<int>(size));
  in.SetTotalBytesLimit(INT_MAX);
  in.SetRecursionLimit(kMaxProtoDepth);
  if (!st.model->ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
    return Status::error(ErrorCode::ModelParseFailed,
                         "the file is not a valid ONNX model (protobuf parse failed); check that "
                         "it is an .onnx file, not truncated, and nests messages (subgraphs) at "
                         "most {} deep",
                         kMaxProtoDepth);
  if (!st.model->has_graph())
    return Status::error(ErrorCode::ModelParseFailed, "the ONNX model has no graph");
  const auto& inits = st.model->graph().initializer();
  for (const RawSpan& r : strip.spans)
    if (r.initializer < static_cast<size_t>(inits.size()))
      st.raw_refs[&inits.Get(static_cast<int>(r.initializer))] = {r.data, r.size};
  st.raw_owner = std::move(owner);
  return importModel(st, opts);
}

}  // namespace

Result<ir::Graph> importOnnxBytes(const void* data, size_t size, const std::string& base_dir,
                                  const OnnxImportOptions& opts) {
  return importBytes(data, size, base_dir, opts, nullptr);
}

Result<ir::Graph> importOnnx(const std::string& path, const OnnxImportOptions& opts) {
  ASC_TRY(auto file, MappedFile::open(path));
  auto g = importBytes(file->data(), file->size(), dirName(path), opts, file);
  if (!g) return g.status().withContext(path);
  return g;
}

}  // namespace asc::frontend
