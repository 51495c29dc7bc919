// atc.cpp: orchestration of atc's modes: 0 (a model -> OM) here; 1 (to JSON), 3 (pre-check) and
// 6 (OM summary) in atc_report.cpp.
#include "atc.h"
#include "atc_config.h"
#include "atc_info.h"
#include "atc_report.h"
#include "atc_singleop.h"

#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <fstream>
#include <iostream>

#include "asc/cli/common.h"
#include "asc/compiler/compile.h"
#include "asc/frontend/caffe.h"
#include "asc/frontend/onnx.h"
#include "asc/frontend/tf.h"
#include "asc/om/om_file.h"
#include "asc/ophost/ophost.h"
#include "asc/ops/plugin.h"
#include "asc/ops/registry.h"
#include "asc/passes/pass.h"
#include "asc/passes/precision.h"
#include "asc/soc/soc.h"
#include "asc/support/file.h"
#include "asc/support/log.h"
#include "asc/support/strings.h"

namespace asc::atc {
namespace {}  // namespace

Status requireValue(const std::string& value, const char* name) {
  if (value.empty()) return Status::error(ErrorCode::EmptyParam, "Value for --{} is empty.", name);
  return Status::ok();
}

namespace {

// --precision_mode and its companions, as a PrecisionOptions. The default is the real atc's,
// force_fp16.
Result<passes::PrecisionOptions> precisionOptions(const Options& o) {
  passes::PrecisionOptions p;
  p.mode = o.precision_mode;
  const std::string keep = o.keep_dtype;
  if (!keep.empty()) {
    std::ifstream f(keep);
    if (!f)
      return Status::error(ErrorCode::FileOpenFailed, "cannot open --keep_dtype file '{}'", keep);
    std::string line;
    while (std::getline(f, line)) {
      line.erase(std::remove_if(line.begin(), line.end(), ::isspace), line.end());
      if (line.empty() || line[0] == '#') continue;
      // "OpType::TypeName" keeps every op of that ONNX type; a plain line names one node.
      if (line.rfind("OpType::", 0) == 0) line = line.substr(8);
      p.keep_fp32.insert(line);
    }
  }
  const std::string fp16_in = o.input_fp16_nodes;
  for (size_t pos = 0; pos < fp16_in.size();) {
    size_t e = fp16_in.find(';', pos);
    if (e == std::string::npos) e = fp16_in.size();
    if (e > pos) p.fp16_inputs.insert(fp16_in.substr(pos, e - pos));
    pos = e + 1;
  }
  const std::string mix = o.modify_mixlist;
  if (!mix.empty()) {
    if (p.mode != "allow_mix_precision")
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter --modify_mixlist is invalid. Reason: it needs "
                           "--precision_mode=allow_mix_precision",
                           mix);
    ASC_RETURN_IF_ERROR(passes::readMixList(mix, &p));
  }
  p.output_type = o.output_type;
  if (!p.output_type.empty() && p.output_type != "FP32" && p.output_type != "FP16")
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: --output_type={} : asc-tools "
                         "supports one type for all outputs, FP32 or FP16",
                         p.output_type);
  return p;
}

}  // namespace

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

namespace {

// Options that steer NPU-only machinery: checked and recorded, with no effect on the CPU.
Status checkNpuOnlyOptions(const Options& o) {
  auto oneOf = [&](const std::string& v, const char* name,
                   std::initializer_list<const char*> allowed) -> Status {
    for (const char* a : allowed)
      if (v == a) return Status::ok();
    std::string list;
    for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --{} is invalid. Reason: use {}", v, name, list);
  };
  if (o.enable_small_channel != "0" && o.enable_small_channel != "1")
    return Status::error(ErrorCode::OneOrZeroParam,
                         "Value {} for parameter --enable_small_channel is invalid. Reason: use 1 "
                         "or 0",
                         o.enable_small_channel);
  ASC_RETURN_IF_ERROR(
      oneOf(o.buffer_optimize, "buffer_optimize", {"l2_optimize", "l1_optimize", "off_optimize"}));
  ASC_RETURN_IF_ERROR(oneOf(o.core_type, "core_type", {"AiCore", "VectorCore"}));
  if (o.given(o.op_select_implmode))
    ASC_RETURN_IF_ERROR(oneOf(o.op_select_implmode, "op_select_implmode",
                              {"high_precision", "high_performance", "high_precision_for_all",
                               "high_performance_for_all"}));
  if (o.given(o.optypelist_for_implmode) && !o.given(o.op_select_implmode))
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --optypelist_for_implmode is invalid. Reason: it "
                         "needs --op_select_implmode",
                         o.optypelist_for_implmode);
  for (const cli::OptionRow& r : optionTable().core().rows())
    if (r.support == cli::Support::NoEffect && o.givenValues().count(r.name()))
      ASC_LOG_INFO("--{}={} is an NPU code-generation setting; the CPU runtime is unaffected",
                   r.name(), o.givenValues().at(r.name()));
  return Status::ok();
}

// --oo_level (the current atc) or --optimize (the seed's spelling): one level, O3 by default.
// --- TensorFlow (--framework=3) ---------------------------------------------------------------

}  // namespace

// --input_format for a GraphDef: NHWC by default, as the real atc.
Result<std::string> tensorFlowInputFormat(const std::string& given) {
  if (given.empty()) return std::string("NHWC");
  if (given != "NHWC" && given != "NCHW" && given != "ND")
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --input_format is invalid. Reason: TensorFlow "
                         "models take NHWC (the default), NCHW or ND",
                         given);
  return given;
}

namespace {

Result<passes::OptLevel> optLevel(const Options& o) {
  if (o.given(o.oo_level) && o.given(o.optimize) && o.oo_level != o.optimize)
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --optimize is invalid. Reason: --oo_level={} "
                         "says otherwise; give one of the two",
                         o.optimize, o.oo_level);
  if (o.given(o.optimize)) return passes::parseOptLevel(o.optimize, "optimize");
  return passes::parseOptLevel(o.oo_level, "oo_level");
}

// --input_format: its default and accepted values depend on the framework.
Result<std::string> inputFormat(const Options& o, int framework) {
  std::string f = o.input_format;
  if (framework == 3) return tensorFlowInputFormat(f);
  if (f.empty()) f = "NCHW";
  if (f != "NCHW" && f != "ND" && f != "NCDHW")
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --input_format is invalid. Reason: ONNX models "
                         "take NCHW, ND or NCDHW",
                         f);
  return f;
}

// Everything --mode=0 takes from the command line, as asc::compile()'s options.
Result<CompileOptions> compileOptions(const Options& o) {
  CompileOptions c;
  ASC_RETURN_IF_ERROR(requireValue(o.model, "model"));
  c.model = o.model;
  const std::string fw = o.framework;
  if (fw != "0" && fw != "1" && fw != "3" && fw != "5")
    return Status::error(ErrorCode::RequiredParam,
                         "--framework is required. The value must be 0(Caffe) or 1(MindSpore) "
                         "or 3(TensorFlow) or 5(Onnx).");
  c.framework = std::stoi(fw);
  if (o.given(o.weight) && c.framework == 5)
    ASC_LOG_WARN("--weight is only used with --framework=0 (Caffe); ignored for ONNX");
  c.weight = o.weight;
  c.soc_version = o.soc_version;
  ASC_TRY(c.precision, precisionOptions(o));
  ASC_TRY(std::string fmt_in, inputFormat(o, c.framework));
  c.shapes.input_shape = o.input_shape;
  c.shapes.input_shape_range = o.input_shape_range;
  c.shapes.dynamic_batch_size = o.dynamic_batch_size;
  c.shapes.dynamic_image_size = o.dynamic_image_size;
  c.shapes.dynamic_dims = o.dynamic_dims;
  c.import.input_format = fmt_in;
  ASC_TRY(c.import.op_name_map, readOpNameMap(o.op_name_map));
  c.out_nodes = o.out_nodes;
  c.insert_op_conf = o.insert_op_conf;
  c.core_type = o.core_type;
  ASC_TRY(c.level, optLevel(o));
  c.keep_original = o.save_original_model;
  c.check_equivalence = o.check_equivalence;

  const std::string reuse_opt = o.disable_reuse_memory;
  if (reuse_opt != "0" && reuse_opt != "1")
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --disable_reuse_memory is invalid. Reason: use 0 "
                         "(reuse) or 1 (no reuse)",
                         reuse_opt);
  c.reuse_memory = reuse_opt == "0";
  if (o.given(o.memory_config)) {
    ASC_TRY(MemoryConfig mem, readMemoryConfig(o.memory_config));
    if (mem.enable_memory_reuse) {
      if (o.given(o.disable_reuse_memory) && *mem.enable_memory_reuse != c.reuse_memory)
        return Status::error(ErrorCode::InvalidParam,
                             "Value {} for parameter --disable_reuse_memory is invalid. Reason: "
                             "{} sets enable_memory_reuse={}; give one of the two",
                             reuse_opt, o.memory_config,
                             *mem.enable_memory_reuse ? "true" : "false");
      c.reuse_memory = *mem.enable_memory_reuse;
    }
    if (mem.memory_reuse_mb) {
      c.arena_limit_bytes = *mem.memory_reuse_mb << 20;
      c.arena_limit_source =
          fmt::format("memory_reuse_mb={} ({} bytes) in {}", *mem.memory_reuse_mb,
                      *c.arena_limit_bytes, o.memory_config);
    }
  }
  ASC_RETURN_IF_ERROR(readFusionSwitch(o.fusion_switch_file, &c.disabled_passes));
  ASC_RETURN_IF_ERROR(readOptimizationSwitch(o.optimization_switch, &c.disabled_passes));
  // --op_select_implmode: the choice for the --optypelist_for_implmode types, or for every op
  // (the *_for_all spellings, or no list); the per-op form of --op_blacklist refines it.
  if (o.given(o.op_select_implmode)) {
    std::string mode = o.op_select_implmode;
    const bool for_all = mode.size() > 8 && mode.compare(mode.size() - 8, 8, "_for_all") == 0;
    if (for_all) mode.resize(mode.size() - 8);
    ASC_RETURN_IF_ERROR(passes::checkImplMode(mode, "--op_select_implmode"));
    const std::string types = o.optypelist_for_implmode;
    if (for_all || types.empty()) c.impl_mode_all = mode;
    for (size_t pos = 0; !for_all && pos < types.size();) {
      size_t e = types.find(',', pos);
      if (e == std::string::npos) e = types.size();
      if (e > pos) c.impl_modes[types.substr(pos, e - pos)] = mode;
      pos = e + 1;
    }
  }
  if (o.given(o.op_blacklist)) {
    passes::PassContext kept;
    ASC_RETURN_IF_ERROR(passes::readOpBlacklist(o.op_blacklist, &kept));
    c.keep_types = kept.keep_types;
    c.keep_names = kept.keep_names;
    for (const auto& [op, mode] : kept.impl_modes) c.impl_modes[op] = mode;
  }
  return c;
}

Status buildModel(const Options& o) {
  ASC_TRY(CompileOptions c, compileOptions(o));
  ASC_RETURN_IF_ERROR(requireValue(o.output, "output"));
  const std::string output = o.output;
  if (output.back() == '/')
    return Status::error(ErrorCode::PathNoFileName,
                         "--output '{}' has no file name after the last '/'; give a path and "
                         "file stem, e.g. out/model",
                         output);
  const std::string dump_mode = o.dump_mode;
  if (dump_mode != "0" && dump_mode != "1")
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --dump_mode is invalid. Reason: use 0 or 1",
                         dump_mode);
  ASC_RETURN_IF_ERROR(checkNpuOnlyOptions(o));
  const std::string external = o.external_weight;
  if (external != "0" && external != "1" && external != "2")
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --external_weight is invalid. Reason: use 0 "
                         "(weights in the OM), 1 (a file per weight) or 2 (one file)",
                         external);
  c.pack_weights = external == "0";  // the weight files beside the OM hold plain data only
  ASC_TRY(CompiledModel m, compile(c));

  const auto t0 = std::chrono::steady_clock::now();
  m.info.atc_cmdline = o.cmdline;
  m.info.external_weight = std::stoi(external);
  const std::string path = output + ".om";
  ASC_RETURN_IF_ERROR(makeDirs(dirName(path)));
  if (m.original) {
    // The model as imported: no pass, no precision change (shapes inferred, constants folded).
    m.original->name = fileStem(output) + "_original";
    om::ModelInfo info = m.info;
    info.opt_level.clear();
    ASC_RETURN_IF_ERROR(om::writeOm(*m.original, info, output + "_original.om"));
  }
  m.graph.name = fileStem(output);
  ASC_RETURN_IF_ERROR(om::writeOm(m.graph, m.info, path));
  ASC_LOG_INFO(
      "imported {} nodes in {:.1f} ms, optimised in {:.1f} ms, wrote {} in {:.1f} ms",
      m.graph.nodes().size(), m.report.import_ms, m.report.optimise_ms, path,
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  return Status::ok();
}

}  // namespace

// A command never replaces one of its own input files: each file this mode writes is checked
// against every input file option (E10001 naming both options).
Status checkOutputsAreNotInputs(const Options& o, const std::string& mode) {
  struct Written {
    const char* option;
    const std::string& value;
    std::string path;
  };
  std::vector<Written> outputs;
  if (mode == "0" && !o.output.empty()) {
    outputs.push_back({"output", o.output, o.output + ".om"});
    outputs.push_back({"output", o.output, o.output + "_original.om"});
  }
  if (mode == "1") outputs.push_back({"json", o.json, o.json});
  if (mode == "3") outputs.push_back({"check_report", o.check_report, o.check_report});
  for (const auto& [out_opt, out_value, out_path] : outputs) {
    if (out_path.empty()) continue;
    const std::pair<const char*, const std::string*> inputs[] = {
        {"model", &o.model},
        {"weight", &o.weight},
        {"om", &o.om},
        {"insert_op_conf", &o.insert_op_conf},
        {"op_name_map", &o.op_name_map},
        {"memory_config", &o.memory_config},
        {"op_blacklist", &o.op_blacklist},
        {"fusion_switch_file", &o.fusion_switch_file},
        {"modify_mixlist", &o.modify_mixlist},
        {"keep_dtype", &o.keep_dtype}};
    for (const auto& [in_opt, in_path] : inputs) {
      if (!o.given(*in_path) || !sameFile(*in_path, out_path)) continue;
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter --{} is invalid. Reason: the file it writes, "
                           "'{}', is the input given to --{}; atc never overwrites an input, "
                           "choose another --{}",
                           out_value, out_opt, out_path, in_opt, out_opt);
    }
  }
  return Status::ok();
}

Status run(const Options& o, std::ostream& out) {
  // The real --log=null only silences atc's log files; on stderr we still show warnings unless
  // the user asked for null explicitly.
  ASC_RETURN_IF_ERROR(cli::applyLogOption(o.log, o.given(o.log)));
  const std::string mode = o.mode;
  if (mode == "0" || mode == "3" || mode == "1")
    ASC_RETURN_IF_ERROR(ophost::loadCustomOperators(o.op_plugin_path));
  ASC_RETURN_IF_ERROR(checkOutputsAreNotInputs(o, mode));
  if (mode == "0") return o.given(o.singleop) ? buildSingleOps(o) : buildModel(o);
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

namespace {

// atc's one way to report a failure, as the real atc prints it: its "ATC run failed" line, then
// the error with its code; exit status 255 (the real atc's FAILED).
int fail(std::ostream& out, const Status& st) {
  out << "ATC run failed, Please check the detail log, Try 'atc --help' for more information"
      << std::endl;
  out << st.toString() << std::endl;
  return cli::kExitAtcFailed;
}

}  // namespace

int main(int argc, const char* const* argv, std::ostream& out) {
  log::setProgram("atc");
  auto opts = parseOptions(argc, argv);
  if (opts && opts->help) {
    out << usage();
    return 0;
  }
  if (opts && opts->version) {
    out << cli::versionText("atc");
    return 0;
  }
  if (opts && opts->options_markdown) {
    out << optionTable().markdown();
    return 0;
  }
  if (opts && opts->list_ops) {
    // The custom operators too (--op_plugin_path, else the environment's and installed ones).
    if (Status st = ophost::loadCustomOperators(opts->op_plugin_path); !st) return fail(out, st);
    listOps(out);
    return 0;
  }
  if (opts && opts->list_caffe_layers) {
    listCaffeLayers(out);
    return 0;
  }
  if (opts && opts->list_tf_ops) {
    listTfOps(out);
    return 0;
  }
  if (opts && opts->compatibility) {
    printCompatibility(out);
    return 0;
  }
  if (opts && !opts->platform_config_dir.empty()) {
    Status st = writePlatformConfig(opts->platform_config_dir);
    return st ? cli::kExitOk : fail(out, st);
  }
  if (opts && !opts->ops_info_dir.empty()) {
    Status st = writeOpsInfo(opts->ops_info_dir);
    return st ? cli::kExitOk : fail(out, st);
  }
  if (opts && opts->list_passes) {
    fmt::print(out, "{:<28} {:<10} {:<6} {}\n", "pass", "kind", "level", "what it does");
    for (const auto& p : passes::allPasses())
      fmt::print(out, "{:<28} {:<10} {:<6} {}\n", p.name, p.kind,
                 p.min_level ? fmt::format("O{}+", p.min_level) : std::string("all"),
                 p.description);
    for (auto level : {passes::OptLevel::O1, passes::OptLevel::O2, passes::OptLevel::O3})
      fmt::print(out, "pipeline at {}{}: {}\n", passes::optLevelName(level),
                 level == passes::OptLevel::O3 ? " (default)" : "",
                 fmt::join(passes::pipelineFor(level), ", "));
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
  if (!st) return fail(out, st);
  out << "ATC run success, welcome to the next use." << std::endl;
  return cli::kExitOk;
}

}  // namespace asc::atc
