// atc_options.cpp: the option table (every option of the real atc, ascend-facts.md 1.4) and
// the parser. Options asc-tools does not implement yet are accepted by the parser and refused by
// run() with E10055 unless they carry their default value, so nothing is silently ignored.
#include "atc_options.h"

#include <cxxopts.hpp>
#include <fmt/format.h>

namespace asc::atc {

const std::vector<OptionSpec>& optionSpecs() {
  static const std::vector<OptionSpec> specs = {
      // name, default, help, implemented
      {"mode", "0",
       "0: build an offline model; 1: OM to JSON; 3: pre-check only (writes --check_report); 6: "
       "display OM info",
       true},
      {"model", "", "source model file (.onnx)", true},
      {"weight", "", "weight file (.caffemodel, with --framework=0)", true},
      {"framework", "-1", "0 Caffe, 1 MindSpore, 3 TensorFlow, 5 ONNX", true},
      {"om", "", "offline model to convert (--mode=1) or display (--mode=6)", true},
      {"json", "", "JSON output path for --mode=1", true},
      {"output", "", "output file stem; .om is added", true},
      {"soc_version", "", "target chip, e.g. Ascend310P3, Ascend910B1", true},
      {"input_format", "", "NCHW (default), ND or NCDHW for ONNX", true},
      {"input_shape", "",
       "\"name1:n,c,h,w;name2:n,c\"; -1 marks a dynamic dim, a~b a range (docs/dynamic-shapes.md)",
       true},
      {"log", "null",
       "debug, info, warning, error or null (stderr messages; warnings show unless null)", true},
      {"dump_mode", "0", "1 adds shapes to the --mode=1 JSON (asc-tools always includes them)",
       true},
      {"check_equivalence", "false",
       "true runs the original and optimised graphs on random inputs and fails if they differ",
       true},
      {"precision_mode", "force_fp16",
       "force_fp16, force_fp32, allow_fp32_to_fp16, allow_mix_precision or must_keep_origin_dtype",
       true},
      {"check_report", "check_result.json", "pre-check report path (--mode=3)", true},
      {"input_shape_range", "", "\"name:[1~16,3,224~512,224~512]\": input dim ranges", true},
      {"input_hint_shape", "", "hint shapes for dynamic inputs", false},
      {"dynamic_batch_size", "", "\"1,2,4,8\": batch profiles (-1 at N in --input_shape)", true},
      {"dynamic_image_size", "", "\"h1,w1;h2,w2\": image-size profiles (-1 at H and W)", true},
      {"dynamic_dims", "", "\"d1,d2;d1,d2\": profiles of the -1 dims of --input_shape", true},
      {"singleop", "", "single-op description file", false},
      {"output_type", "", "FP32 or FP16 for every float output (default: the model's)", true},
      {"core_type", "AiCore", "AiCore or VectorCore (recorded in the OM; one CPU engine runs both)",
       true},
      {"aicore_num", "", "AI Core count", false},
      {"virtual_type", "0", "virtualization type", false},
      {"out_nodes", "", "\"node:0;node2:1\": these node outputs become the model outputs", true},
      {"input_fp16_nodes", "", "\"input1;input2\": model inputs fed as fp16", true},
      {"insert_op_conf", "",
       "AIPP configuration file (protobuf text, aipp_op { ... }): static AIPP in front of a "
       "model input, which then takes the raw uint8 image (docs/aipp.md)",
       true},
      {"op_name_map", "",
       "file of \"SrcType:DstType\" lines: model op types to read as supported ones", true},
      {"op_plugin_path", "",
       "folders (':'-separated) of custom-operator plugins (*.so built with the asc-tools SDK); "
       "default: ASCEND_CUSTOM_OPP_PATH",
       true},
      {"is_input_adjust_hw_layout", "", "input layout adjustment", false},
      {"is_output_adjust_hw_layout", "", "output layout adjustment", false},
      {"disable_reuse_memory", "0", "1 turns activation memory reuse off", true},
      {"memory_config", "",
       "INI file, [memory_optimize]: enable_memory_reuse=true|false, memory_reuse_mb=N (arena "
       "limit, MiB)",
       true},
      {"op_blacklist", "",
       "JSON {\"op_types\": [...], \"op_names\": [...]}: nodes no pass fuses, folds or removes; or "
       "per-op choices {\"op_name\": \"Conv2D\", \"impl_type\": \"high_precision\"} (one or a "
       "list)",
       true},
      {"fusion_switch_file", "",
       "file of \"PassName:off\" lines turning single fusions off (see --list_passes)", true},
      {"enable_scope_fusion_passes", "", "scope fusion passes", false},
      {"enable_single_stream", "", "true/false", false},
      {"enable_small_channel", "0",
       "0 or 1 (an NPU first-layer optimisation: recorded, no effect on the CPU)", true},
      {"enable_compress_weight", "false", "weight compression", false},
      {"compress_weight_conf", "", "weight compression config", false},
      {"buffer_optimize", "l2_optimize",
       "l2_optimize, l1_optimize or off_optimize (NPU buffer fusion: recorded, no effect on the "
       "CPU)",
       true},
      {"mdl_bank_path", "", "model bank path", false},
      {"op_bank_path", "", "op bank path", false},
      {"external_weight", "0",
       "0: weights in the OM; 1: a file per weight, 2: one file, under weight/ beside the OM "
       "(msame maps them)",
       true},
      {"precision_mode_v2", "", "fp16, origin, mixed_float16, ...", false},
      {"op_precision_mode", "", "per-op precision .ini file", false},
      {"modify_mixlist", "", "JSON changes to the mixed-precision lists (with allow_mix_precision)",
       true},
      {"keep_dtype", "", "file: node names (or OpType::Type) that keep fp32", true},
      {"customize_dtypes", "", "per-op dtype file", false},
      {"op_select_implmode", "",
       "high_precision, high_performance, high_precision_for_all or high_performance_for_all: for "
       "the --optypelist_for_implmode types (or every op); high_precision keeps fp32 and the most "
       "accurate kernel",
       true},
      {"optypelist_for_implmode", "", "\"OpType1,OpType2\" for --op_select_implmode", true},
      {"auto_tune_mode", "", "deprecated (use AOE)", false},
      {"op_debug_level", "0", "operator debug level 0..4", false},
      {"debug_dir", "", "debug output folder", false},
      {"op_compiler_cache_dir", "", "operator compile cache folder", false},
      {"op_compiler_cache_mode", "", "disable, enable or force", false},
      {"display_model_info", "0", "1 prints the model info after building", false},
      {"save_original_model", "false",
       "true also writes <output>_original.om (the model before optimisation)", true},
      {"device_id", "0", "device id", false},
      {"oo_level", "O3",
       "optimisation level: O1 folding and elimination, O2 adds the standard fusions, O3 (default) "
       "everything, layout and attention passes included (atc --list_passes shows each pass's "
       "level)",
       true},
      {"optimize", "", "O1, O2 or O3: the seed's spelling of --oo_level", true},
      {"jit_compile", "1", "operator compile mode", false},
      {"deterministic", "0", "deterministic computation", false},
      {"allow_hf32", "", "allow HF32", false},
      {"status_check", "0", "status check", false},
      {"sparsity", "0", "sparsity", false},
      {"atomic_clean_policy", "0", "atomic clean policy", false},
      {"shape_generalized_build_mode", "shape_precise", "shape_precise or shape_generalized",
       false},
      {"ac_parallel_enable", "0", "AI CPU/AI Core parallel", false},
      {"tiling_schedule_optimize", "0", "tiling schedule optimisation", false},
      {"enable_attr_compression", "true", "attribute compression", false},
      {"optimization_switch", "",
       "\"pass:on;pass:off\": switch single passes (names from --list_passes)", true},
      {"host_env_os", "", "host OS of the target", false},
      {"host_env_cpu", "", "host CPU of the target", false},
  };
  return specs;
}

std::string Options::get(const std::string& name) const {
  auto it = values.find(name);
  if (it != values.end()) return it->second;
  for (const auto& s : optionSpecs())
    if (name == s.name) return s.default_value;
  return "";
}

Result<Options> parseOptions(int argc, const char* const* argv) {
  Options o;
  std::vector<std::string> args;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--h" || a == "-h") a = "--help";
    args.push_back(a);
    o.cmdline += (i ? " " : "") + a;
  }
  cxxopts::Options parser("atc", "");
  auto adder = parser.add_options();
  for (const auto& s : optionSpecs()) adder(s.name, s.help, cxxopts::value<std::string>());
  adder("help", "show this help");
  adder("version", "print the asc-tools version");
  adder("list_ops", "list the supported ONNX operators");
  adder("list_caffe_layers", "list the Caffe layer types atc converts, with their IR ops");
  adder("list_tf_ops", "list the TensorFlow op types atc converts, with their IR ops");
  adder("compatibility", "print the compatibility matrix (Markdown): frameworks, chips, ops");
  adder("list_errors", "list the error codes");
  adder("list_passes", "list the graph passes (names for --fusion_switch_file)");
  adder("ops_info", "write <dir>/<soc>/ops_info.json for every chip: the ops each supports",
        cxxopts::value<std::string>());
  std::vector<const char*> cargs;
  for (const auto& a : args) cargs.push_back(a.c_str());
  try {
    auto r = parser.parse(static_cast<int>(cargs.size()), cargs.data());
    if (!r.unmatched().empty())
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter (positional) is invalid. Reason: atc takes "
                           "only --name=value options",
                           r.unmatched().front());
    for (const auto& s : optionSpecs())
      if (r.count(s.name)) o.values[s.name] = r[s.name].as<std::string>();
    o.help = r.count("help") > 0;
    o.version = r.count("version") > 0;
    o.list_ops = r.count("list_ops") > 0;
    o.list_caffe_layers = r.count("list_caffe_layers") > 0;
    o.list_tf_ops = r.count("list_tf_ops") > 0;
    o.compatibility = r.count("compatibility") > 0;
    o.list_errors = r.count("list_errors") > 0;
    o.list_passes = r.count("list_passes") > 0;
    if (r.count("ops_info")) o.ops_info_dir = r["ops_info"].as<std::string>();
  } catch (const cxxopts::exceptions::exception& e) {
    return Status::error(ErrorCode::InvalidParam, "invalid command line: {}; see 'atc --help'",
                         e.what());
  }
  return o;
}

std::string usage() {
  std::string u =
      "usage: atc <args>\n"
      "example:\n"
      "  atc --model=resnet50.onnx --framework=5 --output=out/resnet50 \\\n"
      "      --soc_version=Ascend910B1 --input_shape=\"input:1,3,224,224\"\n"
      "  atc --mode=6 --om=out/resnet50.om\n"
      "  atc --mode=1 --om=out/resnet50.om --json=resnet50.json\n"
      "then run it: msame --model out/resnet50.om --output run/\n\n"
      "options (--name=value or --name value):\n";
  for (const auto& s : optionSpecs())
    u += fmt::format("  --{:<30} {}{}{}\n", s.name, s.help,
                     *s.default_value ? fmt::format(" [default: {}]", s.default_value) : "",
                     s.implemented ? "" : " (not supported yet: refused unless default)");
  u +=
      "  --help, --h                      show this help\n"
      "  --version                        print the asc-tools version\n"
      "  --list_ops                       list the supported ONNX operators\n"
      "  --list_caffe_layers              list the Caffe layer types converted (docs/caffe.md)\n"
      "  --list_tf_ops                    list the TensorFlow op types converted\n"
      "                                   (docs/tensorflow.md)\n"
      "  --compatibility                  the compatibility matrix: frameworks, chips, ops\n"
      "                                   and their opsets (docs/compatibility.md)\n"
      "  --list_errors                    list the error codes\n"
      "  --list_passes                    list the graph passes\n"
      "  --ops_info=DIR                   write DIR/<soc>/ops_info.json for every chip (installed\n"
      "                                   copies: share/asc-tools/ops_info/<soc>/ops_info.json)\n";
  return u;
}

}  // namespace asc::atc
