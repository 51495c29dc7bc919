// atc.cpp: orchestration of atc's modes: 0 (ONNX -> OM), 1 (OM -> JSON), 6 (OM summary).
#include "atc.h"
#include "atc_config.h"

#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <set>
#include <cmath>
#include <fstream>
#include <iostream>
#include <random>

#include "asc/frontend/onnx.h"
#include "asc/om/om_file.h"
#include "asc/ops/registry.h"
#include "asc/passes/pass.h"
#include "asc/passes/layout.h"
#include "asc/passes/precision.h"
#include "asc/runtime/session.h"
#include "asc/soc/soc.h"
#include "asc/support/file.h"
#include "asc/support/log.h"

namespace asc::atc {
namespace {

Status checkUnimplemented(const Options& o) {
  for (const auto& s : optionSpecs()) {
    if (s.implemented || !o.given(s.name)) continue;
    if (o.get(s.name) == s.default_value) continue;  // its default: nothing changes
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: asc-tools atc does not support "
                         "--{}={} yet; remove the option (its default is '{}')",
                         s.name, o.get(s.name), s.default_value);
  }
  return Status::ok();
}

Status requireValue(const Options& o, const char* name) {
  if (o.get(name).empty())
    return Status::error(ErrorCode::EmptyParam, "Value for --{} is empty.", name);
  return Status::ok();
}

// --precision_mode and its companions, as a PrecisionOptions. The default is the real atc's,
// force_fp16.
Result<passes::PrecisionOptions> precisionOptions(const Options& o) {
  passes::PrecisionOptions p;
  p.mode = o.get("precision_mode");
  const std::string keep = o.get("keep_dtype");
  if (!keep.empty()) {
    std::ifstream f(keep);
    if (!f) return Status::error(ErrorCode::FileOpenFailed, "cannot open --keep_dtype file '{}'", keep);
    std::string line;
    while (std::getline(f, line)) {
      line.erase(std::remove_if(line.begin(), line.end(), ::isspace), line.end());
      if (line.empty() || line[0] == '#') continue;
      // "OpType::TypeName" keeps every op of that ONNX type; a plain line names one node.
      if (line.rfind("OpType::", 0) == 0) line = line.substr(8);
      p.keep_fp32.insert(line);
    }
  }
  const std::string fp16_in = o.get("input_fp16_nodes");
  for (size_t pos = 0; pos < fp16_in.size();) {
    size_t e = fp16_in.find(';', pos);
    if (e == std::string::npos) e = fp16_in.size();
    if (e > pos) p.fp16_inputs.insert(fp16_in.substr(pos, e - pos));
    pos = e + 1;
  }
  const std::string mix = o.get("modify_mixlist");
  if (!mix.empty()) {
    if (p.mode != "allow_mix_precision")
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter --modify_mixlist is invalid. Reason: it needs "
                           "--precision_mode=allow_mix_precision",
                           mix);
    ASC_RETURN_IF_ERROR(passes::readMixList(mix, &p));
  }
  p.output_type = o.get("output_type");
  if (!p.output_type.empty() && p.output_type != "FP32" && p.output_type != "FP16")
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: --output_type={} : asc-tools "
                         "supports one type for all outputs, FP32 or FP16",
                         p.output_type);
  return p;
}

// --fusion_switch_file: "PassName:off" / "PassName:on" per line ('#' starts a comment). Names
// of CANN fusions asc-tools does not have are reported and skipped, so a real switch file works.
// --op_name_map: "SrcType:DstType" per line.
Result<std::map<std::string, std::string>> readOpNameMap(const std::string& path) {
  std::map<std::string, std::string> m;
  if (path.empty()) return m;
  std::ifstream f(path);
  if (!f) return Status::error(ErrorCode::FileOpenFailed, "cannot open --op_name_map '{}'", path);
  std::string line;
  for (int no = 1; std::getline(f, line); ++no) {
    line.erase(std::remove_if(line.begin(), line.end(), ::isspace), line.end());
    if (line.empty() || line[0] == '#') continue;
    auto colon = line.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == line.size())
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter --op_name_map is invalid. Reason: line {} of "
                           "{} is not SrcType:DstType",
                           line, no, path);
    m[line.substr(0, colon)] = line.substr(colon + 1);
  }
  return m;
}

// --out_nodes "name:index;name2:index": those node outputs become the model outputs (the
// source-model node names, which fused nodes keep in their original names).
Status applyOutNodes(ir::Graph& g, const std::string& spec) {
  if (spec.empty()) return Status::ok();
  std::vector<ir::Value*> outs;
  size_t pos = 0;
  while (pos < spec.size()) {
    size_t e = spec.find(';', pos);
    if (e == std::string::npos) e = spec.size();
    std::string item = spec.substr(pos, e - pos);
    pos = e + 1;
    if (item.empty()) continue;
    auto colon = item.rfind(':');
    // The index: 1 to 9 decimal digits (an empty index is not 0; a longer one would saturate).
    const std::string digits = colon == std::string::npos ? "" : item.substr(colon + 1);
    const bool ok = !digits.empty() && digits.size() <= 9 &&
                    std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    const long idx = ok ? std::stol(digits) : -1;
    if (!ok)
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter --out_nodes is invalid. Reason: write "
                           "\"node_name:output_index;...\"",
                           item);
    const std::string name = item.substr(0, colon);
    ir::Node* found = nullptr;
    for (const auto& n : g.nodes())
      if (n->name == name || std::count(n->original_names.begin(), n->original_names.end(), name))
        found = n.get();
    if (!found)
      return Status::error(ErrorCode::NodeNotFound,
                           "--out_nodes names '{}', which is not a node of the model (or was "
                           "folded into a constant)",
                           name);
    if (static_cast<size_t>(idx) >= found->outputs.size())
      return Status::error(ErrorCode::InvalidParam,
                           "--out_nodes: node '{}' has {} outputs, index {} is out of range", name,
                           found->outputs.size(), idx);
    outs.push_back(found->outputs[idx]);
  }
  g.outputs = outs;
  return Status::ok();
}

// Options that steer NPU-only machinery: checked and recorded, with no effect on the CPU.
Status checkNpuOnlyOptions(const Options& o, const ir::Graph& g) {
  auto oneOf = [&](const char* name, std::initializer_list<const char*> allowed) -> Status {
    const std::string v = o.get(name);
    for (const char* a : allowed)
      if (v == a) return Status::ok();
    std::string list;
    for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --{} is invalid. Reason: use {}", v, name, list);
  };
  if (o.get("enable_small_channel") != "0" && o.get("enable_small_channel") != "1")
    return Status::error(ErrorCode::OneOrZeroParam,
                         "Value {} for parameter --enable_small_channel is invalid. Reason: use 1 "
                         "or 0",
                         o.get("enable_small_channel"));
  ASC_RETURN_IF_ERROR(oneOf("buffer_optimize", {"l2_optimize", "l1_optimize", "off_optimize"}));
  ASC_RETURN_IF_ERROR(oneOf("core_type", {"AiCore", "VectorCore"}));
  if (o.given("op_select_implmode"))
    ASC_RETURN_IF_ERROR(oneOf("op_select_implmode", {"high_precision", "high_performance",
                                                     "high_precision_for_all",
                                                     "high_performance_for_all"}));
  if (o.given("optypelist_for_implmode") && !o.given("op_select_implmode"))
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --optypelist_for_implmode is invalid. Reason: it "
                         "needs --op_select_implmode",
                         o.get("optypelist_for_implmode"));
  if (o.get("core_type") == "VectorCore")
    for (const auto& n : g.nodes())
      if (n->op_type == "Conv" || n->op_type == "ConvTranspose" || n->op_type == "MatMul" ||
          n->op_type == "Gemm")
        return Status::error(ErrorCode::InvalidParam,
                             "Value VectorCore for parameter --core_type is invalid. Reason: the "
                             "network has Cube operators ({} '{}')",
                             n->op_type, n->name);
  for (const char* name : {"enable_small_channel", "buffer_optimize", "op_select_implmode",
                           "optypelist_for_implmode"})
    if (o.given(name))
      ASC_LOG_INFO("--{}={} is an NPU code-generation setting; the CPU runtime is unaffected",
                   name, o.get(name));
  return Status::ok();
}

struct GraphStats {
  size_t nodes = 0;      // operators, not counting TransData
  size_t transdata = 0;  // layout conversions the target chip needs (free on the CPU)
  int64_t flops = 0;
  om::MemoryPlanSummary memory;
};

GraphStats statsOf(const ir::Graph& g, bool reuse) {
  GraphStats s;
  for (const auto& n : g.nodes()) ++(n->op_type == "TransData" ? s.transdata : s.nodes);
  for (const auto& n : g.nodes()) s.flops += ops::nodeFlops(*n);
  s.memory = om::planActivationMemory(g, reuse);
  return s;
}

// --check_equivalence: the original and the optimised graph on the same random inputs.
Status checkEquivalence(const std::string& model, const frontend::OnnxImportOptions& io,
                        ir::Graph optimised) {
  ASC_TRY(ir::Graph original, frontend::importOnnx(model, io));
  ASC_TRY(auto a, runtime::Session::fromGraph(std::move(original)));
  ASC_TRY(auto b, runtime::Session::fromGraph(std::move(optimised)));
  std::mt19937 rng(7767517);
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  for (size_t i = 0; i < a->inputs().size(); ++i) {
    const auto& info = a->inputs()[i];
    std::vector<uint8_t> bytes(info.bytes, 0);
    if (info.dtype == ir::DType::F32)
      for (size_t k = 0; k < bytes.size() / 4; ++k) reinterpret_cast<float*>(bytes.data())[k] = uni(rng);
    ASC_RETURN_IF_ERROR(a->setInput(i, bytes.data(), bytes.size()));
    ASC_RETURN_IF_ERROR(b->setInput(i, bytes.data(), bytes.size()));
  }
  ASC_RETURN_IF_ERROR(a->run());
  ASC_RETURN_IF_ERROR(b->run());
  for (size_t i = 0; i < a->outputs().size(); ++i) {
    const auto& info = a->outputs()[i];
    if (info.dtype != ir::DType::F32) {
      if (std::memcmp(a->outputData(i), b->outputData(i), info.bytes) != 0)
        return Status::error(ErrorCode::Internal, "--check_equivalence: output '{}' differs after "
                             "optimisation", info.name);
      continue;
    }
    const float* x = static_cast<const float*>(a->outputData(i));
    const float* y = static_cast<const float*>(b->outputData(i));
    double dot = 0, nx = 0, ny = 0, maxdiff = 0, maxref = 0;
    for (size_t k = 0; k < info.bytes / 4; ++k) {
      dot += double(x[k]) * y[k];
      nx += double(x[k]) * x[k];
      ny += double(y[k]) * y[k];
      maxdiff = std::max(maxdiff, std::fabs(double(x[k]) - y[k]));
      maxref = std::max(maxref, std::fabs(double(x[k])));
    }
    const double cosine = nx == 0 && ny == 0 ? 1.0 : dot / std::sqrt(nx * ny);
    ASC_LOG_INFO("check_equivalence: output '{}': cosine {:.7f}, max |diff| {:.3g} (max |ref| {:.3g})",
                 info.name, cosine, maxdiff, maxref);
    if (!(cosine >= 0.99999) || !(maxdiff <= 1e-4 * maxref + 1e-6))
      return Status::error(ErrorCode::Internal,
                           "--check_equivalence: output '{}' differs after optimisation (cosine "
                           "{:.7f}, max |diff| {:.3g}, max |ref| {:.3g}); switch passes off with "
                           "--fusion_switch_file to find the one at fault",
                           info.name, cosine, maxdiff, maxref);
  }
  return Status::ok();
}

Status buildModel(const Options& o) {
  ASC_RETURN_IF_ERROR(requireValue(o, "model"));
  const std::string fw = o.get("framework");
  if (fw == "-1" || fw.empty())
    return Status::error(ErrorCode::RequiredParam,
                         "--framework is required. The value must be 0(Caffe) or 1(MindSpore) "
                         "or 3(TensorFlow) or 5(Onnx).");
  if (fw == "0" || fw == "1" || fw == "3")
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: --framework={} ({}) is not "
                         "supported by asc-tools yet; convert the model to ONNX and use "
                         "--framework=5",
                         fw, fw == "0" ? "Caffe" : fw == "1" ? "MindSpore" : "TensorFlow");
  if (fw != "5")
    return Status::error(ErrorCode::RequiredParam,
                         "--framework is required. The value must be 0(Caffe) or 1(MindSpore) "
                         "or 3(TensorFlow) or 5(Onnx).");
  if (o.given("weight"))
    ASC_LOG_WARN("--weight is only used with --framework=0 (Caffe); ignored for ONNX");
  ASC_RETURN_IF_ERROR(requireValue(o, "output"));
  std::string output = o.get("output");
  if (output.back() == '/')
    return Status::error(ErrorCode::PathNoFileName,
                         "--output '{}' has no file name after the last '/'; give a path and "
                         "file stem, e.g. out/model",
                         output);
  ASC_TRY(const soc::SocInfo* chip, soc::findSoc(o.get("soc_version")));
  ASC_TRY(passes::PrecisionOptions precision, precisionOptions(o));
  std::string fmt_in = o.get("input_format");
  if (fmt_in.empty()) fmt_in = "NCHW";
  if (fmt_in != "NCHW" && fmt_in != "ND" && fmt_in != "NCDHW")
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --input_format is invalid. Reason: ONNX models "
                         "take NCHW, ND or NCDHW",
                         fmt_in);
  std::string dump_mode = o.get("dump_mode");
  if (dump_mode != "0" && dump_mode != "1")
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --dump_mode is invalid. Reason: use 0 or 1",
                         dump_mode);

  auto t0 = std::chrono::steady_clock::now();
  frontend::OnnxImportOptions io;
  io.input_shape = o.get("input_shape");
  io.input_format = fmt_in;
  ASC_TRY(io.op_name_map, readOpNameMap(o.get("op_name_map")));
  ASC_TRY(ir::Graph g, frontend::importOnnx(o.get("model"), io));
  ASC_RETURN_IF_ERROR(checkNpuOnlyOptions(o, g));
  ASC_RETURN_IF_ERROR(applyOutNodes(g, o.get("out_nodes")));
  const std::string save_original = o.get("save_original_model");
  if (save_original != "true" && save_original != "false")
    return Status::error(ErrorCode::BoolParam,
                         "Value {} for parameter --save_original_model is invalid. Reason: use "
                         "true or false",
                         save_original);
  const std::string reuse_opt = o.get("disable_reuse_memory");
  if (reuse_opt != "0" && reuse_opt != "1")
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --disable_reuse_memory is invalid. Reason: use 0 "
                         "(reuse) or 1 (no reuse)",
                         reuse_opt);
  bool reuse = reuse_opt == "0";
  MemoryConfig mem_config;
  if (o.given("memory_config")) {
    ASC_TRY(mem_config, readMemoryConfig(o.get("memory_config")));
    if (mem_config.enable_memory_reuse) {
      if (o.given("disable_reuse_memory") && *mem_config.enable_memory_reuse != reuse)
        return Status::error(ErrorCode::InvalidParam,
                             "Value {} for parameter --disable_reuse_memory is invalid. Reason: "
                             "{} sets enable_memory_reuse={}; give one of the two",
                             reuse_opt, o.get("memory_config"),
                             *mem_config.enable_memory_reuse ? "true" : "false");
      reuse = *mem_config.enable_memory_reuse;
    }
  }
  const std::string check = o.get("check_equivalence");
  if (check != "true" && check != "false")
    return Status::error(ErrorCode::BoolParam,
                         "Value {} for parameter --check_equivalence is invalid. Reason: use true "
                         "or false",
                         check);
  passes::PassContext pc;
  ASC_RETURN_IF_ERROR(readFusionSwitch(o.get("fusion_switch_file"), &pc.disabled));
  if (o.given("op_blacklist")) {
    ASC_RETURN_IF_ERROR(passes::readOpBlacklist(o.get("op_blacklist"), &pc));
    for (const auto& name : pc.keep_names)
      if (!g.findNode(name))
        ASC_LOG_WARN("--op_blacklist: the model has no node named '{}'", name);
  }
  const GraphStats before = statsOf(g, reuse);
  ASC_RETURN_IF_ERROR(passes::runDefaultPipeline(g, pc));
  ASC_RETURN_IF_ERROR(passes::applyPrecision(g, precision, pc));
  ASC_RETURN_IF_ERROR(passes::assignLayouts(g, pc));
  const GraphStats after = statsOf(g, reuse);
  ASC_LOG_INFO("graph optimisation: {} rewrites; nodes {} -> {}{}, GFLOPs {:.3f} -> {:.3f}, arena "
               "{} -> {} bytes (peak live {}), weights {} -> {} bytes",
               pc.log.size(), before.nodes, after.nodes,
               after.transdata ? fmt::format(" (+{} TransData)", after.transdata) : "",
               before.flops / 1e9, after.flops / 1e9, before.memory.arena_bytes,
               after.memory.arena_bytes, after.memory.peak_live_bytes, before.memory.weight_bytes,
               after.memory.weight_bytes);
  if (after.memory.arena_bytes + after.memory.weight_bytes > chip->memory_bytes)
    return Status::error(ErrorCode::MemoryExceeded,
                         "the model needs {} bytes of activations and {} bytes of weights, more "
                         "than the {} bytes of {}; use a smaller --input_shape",
                         after.memory.arena_bytes, after.memory.weight_bytes, chip->memory_bytes,
                         chip->name);
  if (mem_config.memory_reuse_mb &&
      after.memory.arena_bytes > (*mem_config.memory_reuse_mb << 20))
    return Status::error(ErrorCode::MemoryExceeded,
                         "the activation arena needs {} bytes, more than memory_reuse_mb={} ({} "
                         "bytes) in {}; raise the limit, keep memory reuse on, or use a smaller "
                         "--input_shape",
                         after.memory.arena_bytes, *mem_config.memory_reuse_mb,
                         *mem_config.memory_reuse_mb << 20, o.get("memory_config"));
  if (check == "true") {
    frontend::OnnxImportOptions again = io;
    ASC_TRY(ir::Graph copy, frontend::importOnnx(o.get("model"), again));
    passes::PassContext pc2 = pc;
    pc2.log.clear();
    ASC_RETURN_IF_ERROR(passes::runDefaultPipeline(copy, pc2));
    ASC_RETURN_IF_ERROR(checkEquivalence(o.get("model"), io, std::move(copy)));
  }
  auto t1 = std::chrono::steady_clock::now();
  g.name = fileStem(output);
  for (const auto& n : g.nodes())
    for (const char* excluded : chip->excluded_ops)
      if (n->op_type == excluded)
        return Status::error(ErrorCode::UnsupportedOp,
                             "operator '{}' (node '{}') is not supported on {}", n->op_type,
                             n->name, chip->name);
  for (const auto& v : g.values())
    if (!soc::supportsDtype(*chip, v->dtype))
      return Status::error(ErrorCode::UnsupportedOp, "tensor '{}' is {}, which {} does not support",
                           v->name, ir::dtypeName(v->dtype), chip->name);

  om::ModelInfo info;
  info.soc_version = chip->name;
  info.atc_cmdline = o.cmdline;
  info.target_type = chip->target_type;
  info.reuse_memory = reuse;
  info.core_type = o.get("core_type");
  info.c0 = chip->c0;
  std::string path = output + ".om";
  ASC_RETURN_IF_ERROR(makeDirs(dirName(path)));
  if (save_original == "true") {
    // The model as imported: no fusion, no precision change (shapes inferred, constants folded).
    ASC_TRY(ir::Graph original, frontend::importOnnx(o.get("model"), io));
    ASC_RETURN_IF_ERROR(applyOutNodes(original, o.get("out_nodes")));
    original.name = fileStem(output) + "_original";
    ASC_RETURN_IF_ERROR(om::writeOm(original, info, output + "_original.om"));
  }
  ASC_RETURN_IF_ERROR(om::writeOm(g, info, path));
  auto t2 = std::chrono::steady_clock::now();
  ASC_LOG_INFO("imported {} nodes in {:.1f} ms, wrote {} in {:.1f} ms", g.nodes().size(),
               std::chrono::duration<double, std::milli>(t1 - t0).count(), path,
               std::chrono::duration<double, std::milli>(t2 - t1).count());
  return Status::ok();
}

// --mode=3: which nodes asc-tools can take, as the real pre-check report (JSON).
Status precheck(const Options& o, std::ostream& out) {
  ASC_RETURN_IF_ERROR(requireValue(o, "model"));
  const std::string fw = o.get("framework");
  if (fw != "5")
    return Status::error(ErrorCode::RequiredParam,
                         "--framework is required. The value must be 0(Caffe) or 1(MindSpore) "
                         "or 3(TensorFlow) or 5(Onnx); asc-tools pre-checks ONNX (5)");
  frontend::OnnxImportOptions io;
  io.input_shape = o.get("input_shape");
  ASC_TRY(io.op_name_map, readOpNameMap(o.get("op_name_map")));
  ASC_TRY(frontend::PrecheckReport r, frontend::precheckOnnx(o.get("model"), io));
  const size_t fail = r.failed();
  std::string json = fmt::format("{{\n  \"name\": \"{}\",\n  \"result\": \"{}\",\n  \"total\": {},\n"
                                 "  \"pass\": {},\n  \"fail\": {},\n  \"op\": [",
                                 r.model, fail ? "failed" : "success", r.ops.size(),
                                 r.ops.size() - fail, fail);
  auto esc = [](std::string s) {
    std::string o;
    for (char c : s) {
      if (c == '"' || c == '\\') o += '\\';
      if (static_cast<unsigned char>(c) >= 0x20) o += c;
    }
    return o;
  };
  for (size_t i = 0; i < r.ops.size(); ++i) {
    const auto& op = r.ops[i];
    json += fmt::format("{}\n    {{\"name\": \"{}\", \"type\": \"{}\", \"result\": \"{}\"", i ? "," : "",
                        esc(op.name), esc(op.type), op.cause ? "failed" : "success");
    if (op.cause)
      json += fmt::format(", \"cause\": [{{\"code\": {}, \"message\": \"{}\"}}]", op.cause,
                          esc(op.message));
    json += "}";
  }
  json += "\n  ]\n}\n";
  const std::string report = o.get("check_report");
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

// --ops_info=DIR: DIR/<soc>/ops_info.json, the op-support table of each chip.
Status writeOpsInfo(const std::string& dir) {
  for (const auto& chip : soc::allSocs()) {
    std::string json = fmt::format("{{\n  \"soc_version\": \"{}\",\n  \"ops\": {{", chip.name);
    bool first = true;
    for (const auto* d : ops::allOps()) {
      bool excluded = false;
      for (const char* e : chip.excluded_ops) excluded |= d->name() == e;
      if (excluded) continue;
      json += fmt::format("{}\n    \"{}\": {{\"onnx_type\": \"{}\", \"onnx_opset\": {}, \"engine\": \"{}\", "
                          "\"dtype\": \"{}\", \"fused_only\": {}}}",
                          first ? "" : ",", d->cannType(), d->name(),
                          d->onnxSince() > 17 ? 0 : d->onnxSince(), ops::engineName(d->engineKind()),
                          chip.has_bf16 ? "float16,float32,bfloat16" : "float16,float32",
                          d->onnxSince() > 17 ? "true" : "false");
      first = false;
    }
    json += "\n  }\n}\n";
    ASC_RETURN_IF_ERROR(makeDirs(dir + "/" + chip.name));
    ASC_RETURN_IF_ERROR(writeFileAtomic(dir + "/" + chip.name + "/ops_info.json", json.data(), json.size()));
  }
  return Status::ok();
}

Status modelToJson(const Options& o) {
  if (o.given("framework"))
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: --mode=1 with --framework "
                         "(original model to JSON) is not supported yet; give --om=<model>.om");
  ASC_RETURN_IF_ERROR(requireValue(o, "om"));
  ASC_RETURN_IF_ERROR(requireValue(o, "json"));
  ASC_TRY(std::string json, om::omToJson(o.get("om")));
  return writeFileAtomic(o.get("json"), json.data(), json.size());
}

Status displayModel(const Options& o, std::ostream& out) {
  ASC_RETURN_IF_ERROR(requireValue(o, "om"));
  ASC_TRY(om::OmSummary s, om::readOmSummary(o.get("om")));
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
             part(0), part(1), part(3), part(4), part(2), 0);
  fmt::print(out, "============ Display Model Info end   ============\n");
  if (s.peak_live_bytes)
    fmt::print(out, "memory   info: arena[{} B], peak_live[{} B], reuse[{}].\n", attr("memory_size"),
               s.peak_live_bytes, attr("_asc_memory_reuse") == "0" ? "off" : "on");
  fmt::print(out, "model    info: ops[{}], inputs[{}], outputs[{}], checksum[{}].\n", s.op_count,
             fmt::join(s.inputs, "; "), fmt::join(s.outputs, "; "),
             s.checksum_verified ? "verified" : "none");
  return Status::ok();
}

void listOps(std::ostream& out) {
  fmt::print(out, "{:<24} {:<8} {:<24} {:<8} {}\n", "ONNX op", "opset", "CANN type", "engine",
             "notes");
  for (const auto* d : ops::allOps())
    fmt::print(out, "{:<24} {:<8} {:<24} {:<8} {}\n", d->name(),
               d->onnxSince() > 17 ? std::string("fused") : fmt::format("{}+", d->onnxSince()),
               d->cannType(), ops::engineName(d->engineKind()), d->summaryText());
}

}  // namespace

// A command never replaces one of its own input files: each file this mode writes is checked
// against every input file option (E10001 naming both options).
Status checkOutputsAreNotInputs(const Options& o, const std::string& mode) {
  std::vector<std::pair<std::string, std::string>> outputs;  // option, path
  if (mode == "0" && !o.get("output").empty()) {
    outputs.push_back({"output", o.get("output") + ".om"});
    outputs.push_back({"output", o.get("output") + "_original.om"});
  }
  if (mode == "1") outputs.push_back({"json", o.get("json")});
  if (mode == "3") outputs.push_back({"check_report", o.get("check_report")});
  for (const auto& [out_opt, out_path] : outputs) {
    if (out_path.empty()) continue;
    for (const char* in_opt :
         {"model", "weight", "om", "insert_op_conf", "op_name_map", "memory_config", "op_blacklist",
          "fusion_switch_file", "modify_mixlist", "keep_dtype"}) {
      if (!o.given(in_opt) || !sameFile(o.get(in_opt), out_path)) continue;
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter --{} is invalid. Reason: the file it writes, "
                           "'{}', is the input given to --{}; atc never overwrites an input, "
                           "choose another --{}",
                           o.get(out_opt), out_opt, out_path, in_opt, out_opt);
    }
  }
  return Status::ok();
}

Status run(const Options& o, std::ostream& out) {
  ASC_TRY(log::Level level, log::parseLevel(o.get("log")));
  // The real --log=null only silences atc's log files; on stderr we still show warnings unless
  // the user asked for null explicitly.
  log::setLevel(o.given("log") ? level : log::Level::Warning);
  ASC_RETURN_IF_ERROR(checkUnimplemented(o));
  const std::string mode = o.get("mode");
  ASC_RETURN_IF_ERROR(checkOutputsAreNotInputs(o, mode));
  if (mode == "0") return buildModel(o);
  if (mode == "1") return modelToJson(o);
  if (mode == "6") return displayModel(o, out);
  if (mode == "3") return precheck(o, out);
  if (mode == "5")
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: asc-tools does not support "
                         "--mode=5 (GE dump graph to JSON) yet; supported modes are 0, 1, 3 and 6");
  return Status::error(ErrorCode::InvalidParam,
                       "Value {} for parameter --mode is invalid. Reason: supported modes are 0, "
                       "1, 3, 5 and 6",
                       mode);
}

int main(int argc, const char* const* argv, std::ostream& out) {
  log::setProgram("atc");
  auto opts = parseOptions(argc, argv);
  if (opts && opts->help) {
    out << usage();
    return 0;
  }
  if (opts && opts->version) {
    fmt::print(out, "atc (asc-tools) {}\n", asc::version());
    return 0;
  }
  if (opts && opts->list_ops) {
    listOps(out);
    return 0;
  }
  if (opts && !opts->ops_info_dir.empty()) {
    Status st = writeOpsInfo(opts->ops_info_dir);
    if (!st) {
      out << st.toString() << std::endl;
      return 255;
    }
    return 0;
  }
  if (opts && opts->list_passes) {
    for (const auto& p : passes::allPasses()) fmt::print(out, "{:<24} {}\n", p.name, p.description);
    fmt::print(out, "default pipeline: {}\n", fmt::join(passes::defaultPipeline(), ", "));
    return 0;
  }
  if (opts && opts->list_errors) {
    size_t n;
    auto* all = allErrorCodes(&n);
    for (size_t i = 1; i < n; ++i)
      fmt::print(out, "{:<8} {}\n", all[i].second, errorCodeDescription(all[i].first));
    return 0;
  }
  out << "ATC start working now, please wait for a moment." << std::endl;
  Status st = opts ? run(*opts, out) : opts.status();
  if (st.isOk()) {
    out << "ATC run success, welcome to the next use." << std::endl;
    return 0;
  }
  out << "ATC run failed, Please check the detail log, Try 'atc --help' for more information"
      << std::endl;
  out << st.toString() << std::endl;
  return 255;
}

}  // namespace asc::atc
