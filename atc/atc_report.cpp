// atc_report.cpp: atc's modes that read a model and write what they find (atc_report.h).
#include "atc_report.h"

#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <vector>

#include "asc/frontend/caffe.h"
#include "asc/frontend/onnx.h"
#include "asc/frontend/tf.h"
#include "asc/om/om_file.h"
#include "asc/support/file.h"
#include "asc/support/strings.h"

namespace asc::atc {
namespace {

// --mode=3 --framework=3.
Result<frontend::PrecheckReport> tensorFlowPrecheck(const Options& o) {
  frontend::TfImportOptions io;
  io.input_shape = o.input_shape;
  ASC_TRY(io.input_format, tensorFlowInputFormat(o.input_format));
  return frontend::precheckTf(o.model, io);
}

// --mode=1 --framework=3 --om=model.pb: the GraphDef as JSON.
Status tensorFlowToJson(const Options& o) {
  ASC_RETURN_IF_ERROR(requireValue(o.om, "om"));
  ASC_RETURN_IF_ERROR(requireValue(o.json, "json"));
  ASC_TRY(std::string json, frontend::tfGraphToJson(o.om));
  return writeFileAtomic(o.json, json.data(), json.size());
}

// --mode=3 --framework=0: the Caffe layers (and, with --weight, a full import's verdict).
Result<frontend::PrecheckReport> precheckCaffeModel(const Options& o) {
  frontend::CaffeImportOptions co;
  co.input_shape = o.input_shape;
  return frontend::precheckCaffe(o.model, o.weight, co);
}

// The pre-check report as the real atc writes it (JSON at --check_report), and its verdict.
Status writePrecheckReport(const Options& o, const frontend::PrecheckReport& r, std::ostream& out) {
  const size_t fail = r.failed();
  std::string json = fmt::format(
      "{{\n  \"name\": {},\n  \"result\": \"{}\",\n  \"total\": {},\n"
      "  \"pass\": {},\n  \"fail\": {},\n  \"op\": [",
      jsonQuote(r.model), fail ? "failed" : "success", r.ops.size(), r.ops.size() - fail, fail);
  for (size_t i = 0; i < r.ops.size(); ++i) {
    const auto& op = r.ops[i];
    json += fmt::format("{}\n    {{\"name\": {}, \"type\": {}, \"result\": \"{}\"", i ? "," : "",
                        jsonQuote(op.name), jsonQuote(op.type), op.cause ? "failed" : "success");
    if (op.cause)
      json += fmt::format(", \"cause\": [{{\"code\": {}, \"message\": {}}}]", op.cause,
                          jsonQuote(op.message));
    json += "}";
  }
  json += "\n  ]\n}\n";
  const std::string report = o.check_report;
  ASC_RETURN_IF_ERROR(writeFileAtomic(report, json.data(), json.size()));
  fmt::print(out, "pre-check: {} of {} ops pass; report: {}\n", r.ops.size() - fail, r.ops.size(),
             report);
  if (fail) {
    for (const auto& op : r.ops)
      if (op.cause) {
        return Status::error(op.cause == 1 ? ErrorCode::UnsupportedOp : ErrorCode::InvalidModel,
                             "pre-check failed for {} op(s); first: node '{}' ({}): {}; see {}",
                             fail, op.name, op.type, op.message, report);
      }
  }
  return Status::ok();
}

Status caffeModelToJson(const Options& o) {
  ASC_RETURN_IF_ERROR(requireValue(o.om, "om"));
  ASC_RETURN_IF_ERROR(requireValue(o.json, "json"));
  ASC_TRY(std::string json, frontend::caffePrototxtToJson(o.om));
  return writeFileAtomic(o.json, json.data(), json.size());
}

}  // namespace

// --mode=3: which nodes asc-tools can take, as the real pre-check report (JSON).
Status precheck(const Options& o, std::ostream& out) {
  ASC_RETURN_IF_ERROR(requireValue(o.model, "model"));
  const std::string fw = o.framework;
  if (fw != "5" && fw != "3" && fw != "0")
    return Status::error(ErrorCode::RequiredParam,
                         "--framework is required. The value must be 0(Caffe) or 1(MindSpore) "
                         "or 3(TensorFlow) or 5(Onnx); asc-tools pre-checks Caffe (0), "
                         "TensorFlow (3) and ONNX (5)");
  frontend::PrecheckReport r;
  if (fw == "0") {
    ASC_TRY(r, precheckCaffeModel(o));
  } else if (fw == "3") {
    ASC_TRY(r, tensorFlowPrecheck(o));
  } else {
    frontend::OnnxImportOptions io;
    io.input_shape = o.input_shape;
    ASC_TRY(io.op_name_map, readOpNameMap(o.op_name_map));
    ASC_TRY(r, frontend::precheckOnnx(o.model, io));
  }
  return writePrecheckReport(o, r, out);
}

Status modelToJson(const Options& o) {
  if (o.given(o.framework) && o.framework == "0") return caffeModelToJson(o);
  if (o.given(o.framework) && o.framework == "3") return tensorFlowToJson(o);
  if (o.given(o.framework))
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: --mode=1 with --framework "
                         "(original model to JSON) is not supported yet; give --om=<model>.om");
  ASC_RETURN_IF_ERROR(requireValue(o.om, "om"));
  ASC_RETURN_IF_ERROR(requireValue(o.json, "json"));
  ASC_TRY(std::string json, om::omToJson(o.om));
  return writeFileAtomic(o.json, json.data(), json.size());
}

Status displayModel(const Options& o, std::ostream& out) {
  ASC_RETURN_IF_ERROR(requireValue(o.om, "om"));
  ASC_TRY(om::OmSummary s, om::readOmSummary(o.om));
  auto attr = [&](const char* k) {
    auto it = s.attrs.find(k);
    return it == s.attrs.end() ? std::string() : it->second;
  };
  auto part = [&](uint32_t type) -> uint64_t {
    for (const auto& p : s.partitions)
      if (p.type == type) return p.size;
    return 0;
  };
  fmt::print(out, "============ Display Model Info start ============\n");
  fmt::print(out, "Original Atc command line: {}\n", attr("atc_cmdline"));
  fmt::print(out, "system   info: atc_version[{}], soc_version[{}], framework_type[{}].\n",
             attr("atc_version"), attr("soc_version"), attr("framework_type"));
  fmt::print(out,
             "resource info: memory_size[{} B], weight_size[{} B], stream_num[{}], "
             "event_num[{}].\n",
             attr("memory_size"), attr("weight_size"), attr("stream_num"), attr("event_num"));
  fmt::print(out,
             "om       info: modeldef_size[{} B], weight_data_size[{} B], tbe_kernels_size[{} B], "
             "cust_aicpu_kernel_store_size[{} B], task_info_size[{} B], so_store_size[{} B].\n",
             part(0), part(1), part(3), part(4), part(2), part(5));
  // asc-tools' own lines (GE's names for these attributes are UNCONFIRMED; docs/om-format.md,
  // docs/dynamic-shapes.md)
  if (!attr("_asc_packed_weight_size").empty())
    fmt::print(out, "packed   info: count[{}], size[{} B], alone[{}], plain_size[{} B], isa[{}].\n",
               attr("_asc_packed_weights"), attr("_asc_packed_weight_size"),
               attr("_asc_packed_alone").empty() ? "0" : attr("_asc_packed_alone"),
               attr("_asc_plain_weight_size").empty() ? "?" : attr("_asc_plain_weight_size"),
               attr("_asc_packed_isa"));
  if (attr("_asc_dynamic") == "1")
    fmt::print(out, "dynamic  info: type[{}], input_shape_range[{}], gears[{}].\n",
               attr("_asc_dynamic_type").empty() ? "values" : attr("_asc_dynamic_type"),
               attr("_asc_input_shape_range"), attr("_asc_dynamic_gears"));
  fmt::print(out, "============ Display Model Info end   ============\n");
  if (s.peak_live_bytes)
    fmt::print(out, "memory   info: arena[{} B], peak_live[{} B], reuse[{}].\n",
               attr("memory_size"), s.peak_live_bytes,
               attr("_asc_memory_reuse") == "0" ? "off" : "on");
  if (!attr("_asc_oo_level").empty())
    fmt::print(out, "compile  info: oo_level[{}].\n", attr("_asc_oo_level"));
  fmt::print(out, "model    info: ops[{}], inputs[{}], outputs[{}], checksum[{}].\n", s.op_count,
             fmt::join(s.inputs, "; "), fmt::join(s.outputs, "; "),
             s.verified() ? "verified" : "none");
  std::vector<std::string> parts;
  for (const auto& p : s.partitions)
    parts.push_back(fmt::format("{}:{}", om::partitionName(p.type), p.size));
  fmt::print(out,
             "file     info: header_version[0x{:08X}], partition_table[{}-bit], partitions[{}].\n",
             s.version, s.wide_table ? 64 : 32, fmt::join(parts, ", "));
  return Status::ok();
}

}  // namespace asc::atc
