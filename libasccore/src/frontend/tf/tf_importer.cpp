// tf_importer.cpp: frozen GraphDef -> ir::Graph. Parses the file, orders the nodes by their
// data inputs, makes graph inputs of the Placeholders (with --input_shape), constants of the
// Consts, and hands every other node to its converter (tf_ops_*.cpp). Also the GraphDef's
// pre-check (atc --mode=3) and JSON rendering (atc --mode=1).
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <climits>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "asc/support/file.h"
#include "asc/support/log.h"
#include "support/protobuf_log.h"
#include "tf_convert.h"

namespace asc::frontend {
namespace {

using tf::Converter;

// GraphDef nesting is shallow (attr -> list -> tensor); deeper files are not GraphDefs.
constexpr int kMaxProtoDepth = 64;

Status invalid(const std::string& msg) { return Status::error(ErrorCode::InvalidModel, msg); }

Result<std::shared_ptr<tensorflow::GraphDef>> parseGraphDef(const void* data, size_t size) {
  if (size > static_cast<size_t>(INT_MAX))
    return Status::error(ErrorCode::ModelTooLarge,
                         "the GraphDef is {} bytes; protobuf messages are limited to 2 GB", size);
  routeProtobufLogs();
  auto def = std::make_shared<tensorflow::GraphDef>();
  google::protobuf::io::CodedInputStream in(static_cast<const uint8_t*>(data),
                                            static_cast<int>(size));
  in.SetTotalBytesLimit(INT_MAX);
  in.SetRecursionLimit(kMaxProtoDepth);
  if (!def->ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
    return Status::error(ErrorCode::ModelParseFailed,
                         "the file is not a valid TensorFlow GraphDef (protobuf parse failed); "
                         "check that it is a frozen .pb graph and not truncated");
  if (def->node_size() == 0)
    return Status::error(ErrorCode::ModelParseFailed,
                         "the file holds no TensorFlow graph nodes; check that it is a frozen "
                         ".pb GraphDef (a SavedModel or checkpoint must be frozen first)");
  return def;
}

// Node name of an input reference ("name", "name:1", "^name").
std::string sourceNode(const std::string& ref) {
  std::string s = !ref.empty() && ref[0] == '^' ? ref.substr(1) : ref;
  if (auto colon = s.rfind(':'); colon != std::string::npos) s.resize(colon);
  return s;
}

// Node indices in an order where every node follows its inputs (control inputs included),
// keeping the file's order where it can.
Result<std::vector<int>> topoOrder(const tensorflow::GraphDef& def) {
  const int n = def.node_size();
  std::unordered_map<std::string, int> index;
  for (int i = 0; i < n; ++i) {
    const std::string& name = def.node(i).name();
    if (name.empty()) return invalid(fmt::format("node {} has no name", i));
    if (!index.emplace(name, i).second)
      return invalid(fmt::format("node name '{}' is used twice", name));
  }
  std::vector<int> pending(n, 0);
  std::vector<std::vector<int>> users(n);
  for (int i = 0; i < n; ++i)
    for (const auto& ref : def.node(i).input()) {
      auto it = index.find(sourceNode(ref));
      if (it == index.end())
        return invalid(fmt::format("node '{}' ({}): input '{}' names no node of the graph",
                                   def.node(i).name(), def.node(i).op(), ref));
      ++pending[i];
      users[it->second].push_back(i);
    }
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int i = 0; i < n; ++i)
    if (!pending[i]) ready.push(i);
  std::vector<int> order;
  while (!ready.empty()) {
    int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int u : users[i])
      if (--pending[u] == 0) ready.push(u);
  }
  if (static_cast<int>(order.size()) != n) {
    for (int i = 0; i < n; ++i)
      if (pending[i])
        return Status::error(ErrorCode::NotImplemented,
                             "the graph has a cycle through node '{}' ({}): control flow "
                             "(while loops) is not supported; freeze the graph without loops",
                             def.node(i).name(), def.node(i).op());
  }
  return order;
}

Status addPlaceholder(ir::Graph& g, Converter& c, const tensorflow::NodeDef& n,
                      std::map<std::string, ir::Shape>& overrides, const TfImportOptions& opts) {
  ASC_TRY(ir::DType dtype, c.typeAttr("dtype"));
  ir::Shape shape;
  bool known = false;
  if (const auto* a = c.attr("shape");
      a && a->value_case() == tensorflow::AttrValue::kShape && !a->shape().unknown_rank()) {
    known = true;
    for (const auto& d : a->shape().dim()) shape.push_back(d.size() < 0 ? -1 : d.size());
  }
  if (auto it = overrides.find(n.name()); it != overrides.end()) {
    if (known && it->second.size() != shape.size())
      return Status::error(ErrorCode::InputShapeMismatch,
                           "--input_shape gives input '{}' {} dims [{}], the model declares {} "
                           "[{}]",
                           n.name(), it->second.size(), ir::shapeToString(it->second), shape.size(),
                           ir::shapeToString(shape));
    for (size_t i = 0; known && i < shape.size(); ++i)
      if (shape[i] >= 0 && it->second[i] != shape[i])
        return Status::error(ErrorCode::InputShapeMismatch,
                             "--input_shape gives input '{}' dim {} = {}, the model fixes it at "
                             "{}",
                             n.name(), i, it->second[i], shape[i]);
    if (std::count(it->second.begin(), it->second.end(), -1))
      return Status::error(ErrorCode::NotImplemented,
                           "The operation is not supported. Reason: input '{}' has -1 dims in "
                           "--input_shape [{}]; dynamic shapes (-1 dims, --dynamic_batch_size, "
                           "--dynamic_image_size, --dynamic_dims, ranges) are supported for ONNX "
                           "models only; give TensorFlow inputs fixed shapes",
                           n.name(), ir::shapeToString(it->second));
    shape = it->second;
    known = true;
    overrides.erase(it);
  }
  if (!known || std::count_if(shape.begin(), shape.end(), [](int64_t d) { return d < 1; }))
    return Status::error(ErrorCode::InputShapeMismatch,
                         "input '{}' has the shape [{}]{}; give every dim with --input_shape, "
                         "e.g. --input_shape=\"{}:1,224,224,3\"",
                         n.name(), known ? ir::shapeToString(shape) : "?",
                         known ? " with unknown or zero dims" : " of unknown rank", n.name());
  if (std::string why = ir::shapeLimitReason(shape, dtype); !why.empty())
    return Status::error(ErrorCode::ModelTooLarge, "graph input '{}': {}", n.name(), why);
  if (g.findValue(n.name()))
    return invalid(fmt::format("placeholder '{}' clashes with another tensor name", n.name()));
  ir::Value* v = g.addValue(n.name());
  v->dtype = dtype;
  v->shape = shape;
  v->format = shape.size() == 4 && opts.input_format != "ND" ? opts.input_format : "ND";
  g.inputs.push_back(v);
  c.setOut(0, v);
  return Status::ok();
}

// Ops with no outputs a model can use: never graph outputs.
bool noOutputOp(const std::string& op) {
  return op == "NoOp" || op == "Const" || op == "Placeholder" || op == "Assert" || op == "SaveV2" ||
         op == "RestoreV2";
}

Result<ir::Graph> importGraphDef(std::shared_ptr<tensorflow::GraphDef> def,
                                 const TfImportOptions& opts) {
  if (opts.input_format != "NHWC" && opts.input_format != "NCHW" && opts.input_format != "ND")
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --input_format is invalid. Reason: TensorFlow "
                         "models take NHWC, NCHW or ND",
                         opts.input_format);
  ir::Graph g;
  g.name = "tf_graph";
  g.opset = 13;  // the converters build opset-13 forms of the IR ops
  ASC_TRY(auto overrides, parseInputShapes(opts.input_shape));
  ASC_TRY(std::vector<int> order, topoOrder(*def));
  Converter c(g, def, opts.fold_constants);
  std::unordered_set<std::string> read;  // nodes some data input reads
  for (int idx : order) {
    const tensorflow::NodeDef& n = def->node(idx);
    c.begin(n);
    for (const auto& ref : n.input())
      if (ref.empty() || ref[0] != '^') read.insert(sourceNode(ref));
    if (n.op() == "Placeholder") {
      ASC_RETURN_IF_ERROR(addPlaceholder(g, c, n, overrides, opts));
      continue;
    }
    if (n.op() == "Const") {
      const auto* a = c.attr("value");
      if (!a || a->value_case() != tensorflow::AttrValue::kTensor)
        return c.fail("has no tensor 'value'");
      ASC_TRY(ir::Tensor t,
              tf::tensorFromTf(a->tensor(), fmt::format("Const '{}'", n.name()), c.owner()));
      c.setOut(0, g.addConstant(n.name() + ":0", t));
      continue;
    }
    if (n.op() == "NoOp") {
      c.outputsOf(n.name());  // a node, with no outputs
      continue;
    }
    tf::OpConverter fn = tf::findConverter(n.op());
    if (!fn)
      return Status::error(ErrorCode::UnsupportedOp,
                           "unsupported operator '{}' (node '{}'): no TensorFlow parser is "
                           "registered for this op type (the real atc reports E13010); see "
                           "docs/tensorflow.md for the supported ops",
                           n.op(), n.name());
    ASC_RETURN_IF_ERROR(c.bindInputs());
    ASC_RETURN_IF_ERROR(fn(c));
  }
  if (!overrides.empty()) {
    std::vector<std::string> names;
    for (auto* v : g.inputs) names.push_back(v->name);
    return Status::error(ErrorCode::InputShapeMismatch,
                         "--input_shape names input '{}', which is no Placeholder of the model; "
                         "its inputs are: {}",
                         overrides.begin()->first, fmt::join(names, ", "));
  }
  // Outputs: what no node reads, in the file's order.
  for (const auto& n : def->node()) {
    if (read.count(n.name()) || noOutputOp(n.op()) || !c.hasOutputs(n.name())) continue;
    const auto& outs = c.outputsOf(n.name());
    const size_t count =
        n.op() == "Split" || n.op() == "SplitV" || n.op() == "Unpack" || n.op() == "IdentityN"
            ? outs.size()
            : std::min<size_t>(1, outs.size());
    for (size_t i = 0; i < count; ++i)
      if (outs[i].v && !outs[i].v->isConstant()) g.outputs.push_back(outs[i].v);
  }
  if (g.outputs.empty())
    return invalid(
        "the graph has no outputs (every node's result is read by another node, or is a "
        "constant)");
  std::unordered_set<const ir::Value*> seen;
  for (auto* v : g.outputs)
    if (!seen.insert(v).second)
      return invalid(fmt::format("tensor '{}' is a graph output twice", v->name));
  c.dropFolded();
  ops::InferOptions io;
  io.fold_constants = opts.fold_constants;
  ASC_RETURN_IF_ERROR(ops::inferGraph(g, io));
  for (const auto& v : g.values())
    if (!v->isConstant() && v->producer && v->shape.size() == 4 && v->format == "ND")
      v->format = v->producer->op_type == "Transpose" &&
                          v->producer->attrs.getInts("perm") == std::vector<int64_t>{0, 2, 3, 1}
                      ? "NHWC"
                      : "NCHW";
  ASC_RETURN_IF_ERROR(ir::verify(g));
  return g;
}

}  // namespace

Result<ir::Graph> importTfBytes(const void* data, size_t size, const TfImportOptions& opts) {
  ASC_TRY(auto def, parseGraphDef(data, size));
  return importGraphDef(std::move(def), opts);
}

Result<ir::Graph> importTf(const std::string& path, const TfImportOptions& opts) {
  ASC_TRY(auto file, MappedFile::open(path));
  auto g = importTfBytes(file->data(), file->size(), opts);
  if (!g) return g.status().withContext(path);
  return g;
}

std::vector<std::string> tfSupportedOps() {
  std::vector<std::string> ops;
  for (const auto& [op, entry] : tf::opTable()) ops.push_back(op);
  return ops;  // the table is sorted
}

const std::vector<TfOpInfo>& tfOps() {
  static const std::vector<TfOpInfo> kOps = [] {
    std::vector<TfOpInfo> v;
    for (const auto& [op, e] : tf::opTable()) {
      TfOpInfo info{op, {}, e.shown, e.notes};
      std::string w;
      for (const char* p = e.ir_ops;; ++p) {
        if (*p && *p != ' ') {
          w += *p;
          continue;
        }
        if (!w.empty()) info.ir_ops.push_back(std::move(w));
        w.clear();
        if (!*p) break;
      }
      v.push_back(std::move(info));
    }
    return v;
  }();
  return kOps;
}

Result<PrecheckReport> precheckTf(const std::string& path, const TfImportOptions& opts) {
  ASC_TRY(auto file, MappedFile::open(path));
  auto parsed = parseGraphDef(file->data(), file->size());
  if (!parsed) return parsed.status().withContext(path);
  const tensorflow::GraphDef& def = **parsed;
  PrecheckReport r;
  r.model = fileStem(path);
  std::unordered_set<std::string> names;
  const std::vector<std::string> known = tfSupportedOps();
  for (const auto& n : def.node()) {
    PrecheckOp op;
    op.name = n.name();
    op.type = n.op();
    if (!names.insert(n.name()).second) {
      op.cause = 9;
      op.message = "the node name is used twice";
    } else if (!std::binary_search(known.begin(), known.end(), n.op())) {
      op.cause = 1;
      op.message = fmt::format("operator type '{}' is not supported (E2002)", n.op());
    }
    r.ops.push_back(std::move(op));
  }
  // Parameters: a full import names the first node whose attributes or shapes are invalid.
  if (r.failed() == 0) {
    auto g = importGraphDef(*parsed, opts);
    if (!g && (g.status().code() == ErrorCode::InvalidModel ||
               g.status().code() == ErrorCode::NotImplemented)) {
      const std::string& msg = g.status().message();
      for (auto& op : r.ops)
        if (msg.find("node '" + op.name + "'") != std::string::npos ||
            msg.find("node '" + op.name + "/") != std::string::npos) {
          op.cause = 2;
          op.message = msg.substr(msg.find("node '"));
          break;
        }
    }
  }
  return r;
}

Result<std::string> tfGraphToJson(const std::string& path) {
  ASC_TRY(auto file, MappedFile::open(path));
  auto parsed = parseGraphDef(file->data(), file->size());
  if (!parsed) return parsed.status().withContext(path);
  google::protobuf::util::JsonPrintOptions po;
  po.add_whitespace = true;
  po.preserve_proto_field_names = true;
  std::string json;
  auto st = google::protobuf::util::MessageToJsonString(**parsed, &json, po);
  if (!st.ok())
    return Status::error(ErrorCode::Internal, "{}: the GraphDef could not be rendered as JSON: {}",
                         path, std::string(st.message()));
  return json;
}

}  // namespace asc::frontend
