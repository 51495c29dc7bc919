// onnx_extract.cpp: an ONNX model's node list, and a standalone model cut out of it (the file a
// user attaches to a bug report: mscompare debug_reduce). Works on the protobuf as written; the
// importer's passes are not involved, so the cut holds the user's own nodes.
#include <fmt/format.h>
#include <google/protobuf/io/coded_stream.h>

#include <climits>
#include <map>
#include <set>

#include "asc/frontend/onnx.h"
#include "asc/support/file.h"
#include "onnx/onnx.pb.h"
#include "support/protobuf_log.h"

namespace asc::frontend {
namespace {

Result<std::unique_ptr<onnx::ModelProto>> readModel(const std::string& path) {
  ASC_TRY(auto file, MappedFile::open(path));
  if (file->size() > static_cast<size_t>(INT_MAX))
    return Status::error(ErrorCode::ModelTooLarge,
                         "'{}' is {} bytes; protobuf messages are limited to 2 GB", path,
                         file->size());
  routeProtobufLogs();
  auto m = std::make_unique<onnx::ModelProto>();
  google::protobuf::io::CodedInputStream in(static_cast<const uint8_t*>(file->data()),
                                            static_cast<int>(file->size()));
  in.SetTotalBytesLimit(INT_MAX);
  if (!m->ParseFromCodedStream(&in) || !in.ConsumedEntireMessage() || !m->has_graph())
    return Status::error(ErrorCode::ModelParseFailed,
                         "'{}' is not a valid ONNX model (protobuf parse failed)", path);
  for (const auto& t : m->graph().initializer())
    if (t.data_location() == onnx::TensorProto::EXTERNAL)
      return Status::error(ErrorCode::NotImplemented,
                           "'{}' keeps initializer '{}' in an external file; cutting such models "
                           "apart is not supported yet: save the model with its weights inline "
                           "(onnx.save(model, path, save_as_external_data=False))",
                           path, t.name());
  return m;
}

std::string nodeName(const onnx::NodeProto& n, int index) {
  return n.name().empty() ? fmt::format("{}_{}", n.op_type(), index) : n.name();
}

void setType(onnx::ValueInfoProto* vi, const OnnxBorder& b) {
  vi->set_name(b.name);
  auto* t = vi->mutable_type()->mutable_tensor_type();
  t->set_elem_type(ir::dtypeToOnnx(b.dtype));
  auto* shape = t->mutable_shape();
  for (int64_t d : b.shape) shape->add_dim()->set_dim_value(d);
}

}  // namespace

Result<OnnxGraphRef> describeOnnx(const std::string& path) {
  ASC_TRY(auto m, readModel(path));
  OnnxGraphRef r;
  for (const auto& op : m->opset_import())
    if (op.domain().empty() || op.domain() == "ai.onnx") r.opset = static_cast<int>(op.version());
  std::set<std::string> inits;
  for (const auto& t : m->graph().initializer()) inits.insert(t.name());
  for (const auto& vi : m->graph().input())
    if (!inits.count(vi.name())) r.inputs.push_back(vi.name());
  for (const auto& vi : m->graph().output()) r.outputs.push_back(vi.name());
  const auto& g = m->graph();
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& n = g.node(i);
    OnnxNodeRef ref;
    ref.name = nodeName(n, i);
    ref.op_type = n.op_type();
    ref.inputs.assign(n.input().begin(), n.input().end());
    ref.outputs.assign(n.output().begin(), n.output().end());
    r.nodes.push_back(std::move(ref));
  }
  return r;
}

Result<std::string> extractOnnxSubgraph(const std::string& path, const std::vector<size_t>& nodes,
                                        const std::vector<OnnxBorder>& inputs,
                                        const std::vector<OnnxBorder>& outputs) {
  ASC_TRY(auto m, readModel(path));
  const auto& g = m->graph();
  std::map<std::string, const onnx::TensorProto*> inits;
  for (const auto& t : g.initializer()) inits.emplace(t.name(), &t);
  std::set<size_t> chosen(nodes.begin(), nodes.end());
  std::set<std::string> available;
  for (const auto& b : inputs) available.insert(b.name);

  onnx::ModelProto out;
  out.set_ir_version(m->ir_version());
  *out.mutable_opset_import() = m->opset_import();
  out.set_producer_name("asc-tools mscompare debug_reduce");
  out.set_producer_version(m->producer_name() + " " + m->producer_version());
  auto* og = out.mutable_graph();
  og->set_name(g.name().empty() ? "reduced" : g.name() + "_reduced");
  std::set<std::string> copied;
  for (size_t idx : chosen) {
    if (idx >= static_cast<size_t>(g.node_size()))
      return Status::error(ErrorCode::InvalidParam, "node index {} is outside the model's {} nodes",
                           idx, g.node_size());
    const auto& n = g.node(static_cast<int>(idx));
    for (const auto& in : n.input()) {
      if (in.empty() || available.count(in)) continue;
      auto it = inits.find(in);
      if (it == inits.end())
        return Status::error(ErrorCode::InvalidParam,
                             "node '{}' reads '{}', which the cut neither computes nor takes as "
                             "an input",
                             nodeName(n, static_cast<int>(idx)), in);
      if (copied.insert(in).second) *og->add_initializer() = *it->second;
    }
    auto* c = og->add_node();
    *c = n;
    c->set_name(nodeName(n, static_cast<int>(idx)));
    for (const auto& o : n.output())
      if (!o.empty()) available.insert(o);
  }
  for (const auto& b : inputs) setType(og->add_input(), b);
  for (const auto& b : outputs) {
    if (!available.count(b.name))
      return Status::error(ErrorCode::InvalidParam, "the cut does not compute output '{}'", b.name);
    setType(og->add_output(), b);
  }
  std::string bytes;
  if (!out.SerializeToString(&bytes))
    return Status::error(ErrorCode::Internal, "could not serialize the extracted model");
  return bytes;
}

}  // namespace asc::frontend
