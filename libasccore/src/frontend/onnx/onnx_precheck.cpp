// onnx_precheck.cpp: atc --mode=3 for an ONNX model: per node, whether asc-tools takes its
// operator at the model's opset (causes 1 TYPE_UNSUPPORTED, 9 NAME_REPEATED), then a full import
// names the first node whose parameters are invalid (cause 2).
#include <climits>
#include <unordered_set>

#include <google/protobuf/io/coded_stream.h>

#include "asc/ops/registry.h"
#include "frontend/onnx/onnx_import.h"
#include "support/protobuf_log.h"

namespace asc::frontend {
using namespace onnx_import;

size_t PrecheckReport::failed() const {
  size_t n = 0;
  for (const auto& op : ops) n += op.cause != 0;
  return n;
}

Result<PrecheckReport> precheckOnnx(const std::string& path, const OnnxImportOptions& opts) {
  routeProtobufLogs();
  ASC_TRY(auto file, MappedFile::open(path));
  if (file->size() > static_cast<size_t>(INT_MAX))
    return Status::error(ErrorCode::ModelTooLarge,
                         "{}: the ONNX file is {} bytes; protobuf messages are limited to 2 GB, "
                         "so store the weights as external data",
                         path, file->size());
  onnx::ModelProto m;
  google::protobuf::io::CodedInputStream in(file->data(), static_cast<int>(file->size()));
  in.SetTotalBytesLimit(INT_MAX);
  in.SetRecursionLimit(kMaxProtoDepth);
  if (!m.ParseFromCodedStream(&in) || !m.has_graph())
    return Status::error(ErrorCode::ModelParseFailed, "{}: not a valid ONNX model", path);
  int opset = -1;
  for (const auto& op : m.opset_import())
    if (op.domain().empty() || op.domain() == "ai.onnx") opset = static_cast<int>(op.version());
  PrecheckReport r;
  r.model = fileStem(path);
  std::unordered_set<std::string> names;
  for (int i = 0; i < m.graph().node_size(); ++i) {
    const auto& np = m.graph().node(i);
    PrecheckOp op;
    op.name = np.name().empty() ? fmt::format("{}_{}", np.op_type(), i) : np.name();
    op.type = np.op_type();
    std::string type = np.op_type();
    const ops::OnnxCustomMapping* custom =
        ops::findOnnxCustomMapping(np.domain(), opsetOf(m, np.domain()), type);
    if (custom)
      type = custom->custom_type;
    else if (auto it = opts.op_name_map.find(type); it != opts.op_name_map.end())
      type = it->second;
    const ops::OpDef* d = ops::lookup(type);
    if (!d) d = ops::lookupByCann(type);
    if (!names.insert(op.name).second) {
      op.cause = 9;
      op.message = "the node name is used twice";
    } else if (!d ||
               (!custom && !np.domain().empty() && np.domain() != "ai.onnx" &&
                !opts.op_name_map.count(np.op_type()) && !customDomainOp(np.domain(), type))) {
      op.cause = 1;
      op.message = fmt::format("operator type '{}' is not supported (E2002)", np.op_type());
    } else if (d->isInternal()) {
      op.cause = 1;
      op.message =
          fmt::format("'{}' is no ONNX operator (asc-tools makes it in a fusion)", np.op_type());
    } else if (!custom && opset >= 0 && opset < d->onnxSince()) {
      op.cause = 1;
      op.message = fmt::format("'{}' exists from opset {} on, the model uses opset {}",
                               np.op_type(), d->onnxSince(), opset);
    }
    r.ops.push_back(std::move(op));
  }
  // Parameters: a full import names the first node whose attributes or shapes are invalid.
  if (r.failed() == 0) {
    auto g = importOnnx(path, opts);
    if (!g && g.status().code() == ErrorCode::InvalidModel) {
      const std::string& msg = g.status().message();
      for (auto& op : r.ops)
        if (msg.find("node '" + op.name + "'") != std::string::npos) {
          op.cause = 2;
          op.message = msg.substr(msg.find("node '"));
          break;
        }
    }
  }
  return r;
}

}  // namespace asc::frontend
