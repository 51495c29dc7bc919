// atc_options.cpp: atc's option table (every option of the real atc, ascend-facts.md 1.4, and
// asc-tools' informational ones); the parser, --help and docs/options.md come from it. Values
// are kept as typed (empty ones included): the modes check them with the real atc's messages.
#include "atc_options.h"

namespace asc::atc {

const cli::OptionTable<Options>& optionTable() {
  static const cli::OptionTable<Options> t = [] {
    using O = Options;
    using cli::Kind;
    cli::OptionTable<O> t("atc", cli::Syntax::Gflags);
    t.text(
         "--mode", &O::mode, "0", "",
         "0: build an offline model; 1: OM to JSON; 3: pre-check only (writes --check_report); 6: "
         "display OM info")
        .allow_empty = true;
    t.text("--model", &O::model, "", "", "source model file (.onnx)").allow_empty = true;
    t.text("--weight", &O::weight, "", "", "weight file (.caffemodel, with --framework=0)")
        .allow_empty = true;
    t.text("--framework", &O::framework, "-1", "", "0 Caffe, 1 MindSpore, 3 TensorFlow, 5 ONNX")
        .allow_empty = true;
    t.text("--om", &O::om, "", "", "offline model to convert (--mode=1) or display (--mode=6)")
        .allow_empty = true;
    t.text("--json", &O::json, "", "", "JSON output path for --mode=1").allow_empty = true;
    t.text("--output", &O::output, "", "",
           "output file stem; .om is added (with --singleop: the folder of the models)")
        .allow_empty = true;
    t.text("--soc_version", &O::soc_version, "", "", "target chip, e.g. Ascend310P3, Ascend910B1")
        .allow_empty = true;
    t.text("--input_format", &O::input_format, "", "", "NCHW (default), ND or NCDHW for ONNX")
        .allow_empty = true;
    t.text("--input_shape", &O::input_shape, "", "",
           "\"name1:n,c,h,w;name2:n,c\"; -1 marks a dynamic dim, a~b a range "
           "(docs/dynamic-shapes.md)")
        .allow_empty = true;
    t.text("--log", &O::log, "null", "",
           "debug, info, warning, error or null (stderr messages; warnings show unless null)")
        .allow_empty = true;
    t.text("--dump_mode", &O::dump_mode, "0", "",
           "1 adds shapes to the --mode=1 JSON (asc-tools always includes them)")
        .allow_empty = true;
    t.boolean(
        "--check_equivalence", &O::check_equivalence, "false",
        "true runs the original and optimised graphs on random inputs and fails if they differ");
    t.text("--precision_mode", &O::precision_mode, "force_fp16", "",
           "force_fp16, force_fp32, allow_fp32_to_fp16, allow_mix_precision or "
           "must_keep_origin_dtype")
        .allow_empty = true;
    t.text("--check_report", &O::check_report, "check_result.json", "",
           "pre-check report path (--mode=3)")
        .allow_empty = true;
    t.text("--input_shape_range", &O::input_shape_range, "", "",
           "\"name:[1~16,3,224~512,224~512]\": input dim ranges")
        .allow_empty = true;
    t.refused("--input_hint_shape", Kind::Text, "", "hint shapes for dynamic inputs").allow_empty =
        true;
    t.text("--dynamic_batch_size", &O::dynamic_batch_size, "", "",
           "\"1,2,4,8\": batch profiles (-1 at N in --input_shape)")
        .allow_empty = true;
    t.text("--dynamic_image_size", &O::dynamic_image_size, "", "",
           "\"h1,w1;h2,w2\": image-size profiles (-1 at H and W)")
        .allow_empty = true;
    t.text("--dynamic_dims", &O::dynamic_dims, "", "",
           "\"d1,d2;d1,d2\": profiles of the -1 dims of --input_shape")
        .allow_empty = true;
    t.text("--singleop", &O::singleop, "", "",
           "JSON file of op descriptions: one single-operator OM per op in the --output folder "
           "(docs/acl.md, \"Single operators\")")
        .allow_empty = true;
    t.text("--output_type", &O::output_type, "", "",
           "FP32 or FP16 for every float output (default: the model's)")
        .allow_empty = true;
    {
      cli::OptionRow& r =
          t.text("--core_type", &O::core_type, "AiCore", "",
                 "AiCore or VectorCore (recorded in the OM; one CPU engine runs both)");
      r.support = cli::Support::NoEffect;
      r.allow_empty = true;
    }
    t.refused("--aicore_num", Kind::Text, "", "AI Core count").allow_empty = true;
    t.refused("--virtual_type", Kind::Text, "0", "virtualization type").allow_empty = true;
    t.text("--out_nodes", &O::out_nodes, "", "",
           "\"node:0;node2:1\": these node outputs become the model outputs")
        .allow_empty = true;
    t.text("--input_fp16_nodes", &O::input_fp16_nodes, "", "",
           "\"input1;input2\": model inputs fed as fp16")
        .allow_empty = true;
    t.text("--insert_op_conf", &O::insert_op_conf, "", "",
           "AIPP configuration file (protobuf text, aipp_op { ... }): static AIPP in front of a "
           "model input, which then takes the raw uint8 image (docs/aipp.md)")
        .allow_empty = true;
    t.text("--op_name_map", &O::op_name_map, "", "",
           "file of \"SrcType:DstType\" lines: model op types to read as supported ones")
        .allow_empty = true;
    t.text(
         "--op_plugin_path", &O::op_plugin_path, "", "",
         "folders (':'-separated) of custom-operator plugins (*.so built with the asc-tools SDK); "
         "default: ASCEND_CUSTOM_OPP_PATH")
        .allow_empty = true;
    t.refused("--is_input_adjust_hw_layout", Kind::Text, "", "input layout adjustment")
        .allow_empty = true;
    t.refused("--is_output_adjust_hw_layout", Kind::Text, "", "output layout adjustment")
        .allow_empty = true;
    t.text("--disable_reuse_memory", &O::disable_reuse_memory, "0", "",
           "1 turns activation memory reuse off")
        .allow_empty = true;
    t.text("--memory_config", &O::memory_config, "", "",
           "INI file, [memory_optimize]: enable_memory_reuse=true|false, memory_reuse_mb=N (arena "
           "limit, MiB)")
        .allow_empty = true;
    t.text("--op_blacklist", &O::op_blacklist, "", "",
           "JSON {\"op_types\": [...], \"op_names\": [...]}: nodes no pass fuses, folds or "
           "removes; or "
           "per-op choices {\"op_name\": \"Conv2D\", \"impl_type\": \"high_precision\"} (one or a "
           "list)")
        .allow_empty = true;
    t.text("--fusion_switch_file", &O::fusion_switch_file, "", "",
           "file of \"PassName:off\" lines turning single fusions off (see --list_passes)")
        .allow_empty = true;
    t.refused("--enable_scope_fusion_passes", Kind::Text, "", "scope fusion passes").allow_empty =
        true;
    t.refused("--enable_single_stream", Kind::Text, "", "true/false").allow_empty = true;
    {
      cli::OptionRow& r =
          t.text("--enable_small_channel", &O::enable_small_channel, "0", "",
                 "0 or 1 (an NPU first-layer optimisation: recorded, no effect on the CPU)");
      r.support = cli::Support::NoEffect;
      r.allow_empty = true;
    }
    t.refused("--enable_compress_weight", Kind::Text, "false", "weight compression").allow_empty =
        true;
    t.refused("--compress_weight_conf", Kind::Text, "", "weight compression config").allow_empty =
        true;
    {
      cli::OptionRow& r = t.text(
          "--buffer_optimize", &O::buffer_optimize, "l2_optimize", "",
          "l2_optimize, l1_optimize or off_optimize (NPU buffer fusion: recorded, no effect on the "
          "CPU)");
      r.support = cli::Support::NoEffect;
      r.allow_empty = true;
    }
    t.refused("--mdl_bank_path", Kind::Text, "", "model bank path").allow_empty = true;
    t.refused("--op_bank_path", Kind::Text, "", "op bank path").allow_empty = true;
    t.text("--external_weight", &O::external_weight, "0", "",
           "0: weights in the OM; 1: a file per weight, 2: one file, under weight/ beside the OM "
           "(msame maps them)")
        .allow_empty = true;
    t.refused("--precision_mode_v2", Kind::Text, "", "fp16, origin, mixed_float16, ...")
        .allow_empty = true;
    t.refused("--op_precision_mode", Kind::Text, "", "per-op precision .ini file").allow_empty =
        true;
    t.text("--modify_mixlist", &O::modify_mixlist, "", "",
           "JSON changes to the mixed-precision lists (with allow_mix_precision)")
        .allow_empty = true;
    t.text("--keep_dtype", &O::keep_dtype, "", "",
           "file: node names (or OpType::Type) that keep fp32")
        .allow_empty = true;
    t.refused("--customize_dtypes", Kind::Text, "", "per-op dtype file").allow_empty = true;
    t.text("--op_select_implmode", &O::op_select_implmode, "", "",
           "high_precision, high_performance, high_precision_for_all or high_performance_for_all: "
           "for "
           "the --optypelist_for_implmode types (or every op); high_precision keeps fp32 and the "
           "most "
           "accurate kernel")
        .allow_empty = true;
    t.text("--optypelist_for_implmode", &O::optypelist_for_implmode, "", "",
           "\"OpType1,OpType2\" for --op_select_implmode")
        .allow_empty = true;
    t.refused("--auto_tune_mode", Kind::Text, "", "deprecated (use AOE)").allow_empty = true;
    t.refused("--op_debug_level", Kind::Text, "0", "operator debug level 0..4").allow_empty = true;
    t.refused("--debug_dir", Kind::Text, "", "debug output folder").allow_empty = true;
    t.refused("--op_compiler_cache_dir", Kind::Text, "", "operator compile cache folder")
        .allow_empty = true;
    t.refused("--op_compiler_cache_mode", Kind::Text, "", "disable, enable or force").allow_empty =
        true;
    t.refused("--display_model_info", Kind::Text, "0", "1 prints the model info after building")
        .allow_empty = true;
    t.boolean("--save_original_model", &O::save_original_model, "false",
              "true also writes <output>_original.om (the model before optimisation)");
    t.refused("--device_id", Kind::Text, "0", "device id").allow_empty = true;
    t.text("--oo_level", &O::oo_level, "O3", "",
           "optimisation level: O1 folding and elimination, O2 adds the standard fusions, O3 "
           "(default) "
           "everything, layout and attention passes included (atc --list_passes shows each pass's "
           "level)")
        .allow_empty = true;
    t.text("--optimize", &O::optimize, "", "", "O1, O2 or O3: the seed's spelling of --oo_level")
        .allow_empty = true;
    t.refused("--jit_compile", Kind::Text, "1", "operator compile mode").allow_empty = true;
    t.refused("--deterministic", Kind::Text, "0", "deterministic computation").allow_empty = true;
    t.refused("--allow_hf32", Kind::Text, "", "allow HF32").allow_empty = true;
    t.refused("--status_check", Kind::Text, "0", "status check").allow_empty = true;
    t.refused("--sparsity", Kind::Text, "0", "sparsity").allow_empty = true;
    t.refused("--atomic_clean_policy", Kind::Text, "0", "atomic clean policy").allow_empty = true;
    t.refused("--shape_generalized_build_mode", Kind::Text, "shape_precise",
              "shape_precise or shape_generalized")
        .allow_empty = true;
    t.refused("--ac_parallel_enable", Kind::Text, "0", "AI CPU/AI Core parallel").allow_empty =
        true;
    t.refused("--tiling_schedule_optimize", Kind::Text, "0", "tiling schedule optimisation")
        .allow_empty = true;
    t.refused("--enable_attr_compression", Kind::Text, "true", "attribute compression")
        .allow_empty = true;
    t.text("--optimization_switch", &O::optimization_switch, "", "",
           "\"pass:on;pass:off\": switch single passes (names from --list_passes)")
        .allow_empty = true;
    t.refused("--host_env_os", Kind::Text, "", "host OS of the target").allow_empty = true;
    t.refused("--host_env_cpu", Kind::Text, "", "host CPU of the target").allow_empty = true;
    t.flag("--help --h -h", &O::help, "show this help");
    t.flag("--version", &O::version, "print the asc-tools version");
    t.flag("--list_ops", &O::list_ops, "list the supported ONNX operators");
    t.flag("--list_caffe_layers", &O::list_caffe_layers,
           "list the Caffe layer types converted (docs/caffe.md)");
    t.flag("--list_tf_ops", &O::list_tf_ops,
           "list the TensorFlow op types converted (docs/tensorflow.md)");
    t.flag("--compatibility", &O::compatibility,
           "the compatibility matrix: frameworks, chips, ops and their opsets "
           "(docs/compatibility.md)");
    t.flag("--list_errors", &O::list_errors, "list the error codes");
    t.flag("--list_passes", &O::list_passes,
           "list the graph passes (names for --fusion_switch_file)");
    t.text("--ops_info", &O::ops_info_dir, "", "DIR",
           "write DIR/<soc>/ops_info.json for every chip (installed copies: "
           "share/asc-tools/ops_info/<soc>/ops_info.json)");
    t.text("--platform_config", &O::platform_config_dir, "", "DIR",
           "write DIR/<soc>.ini for every chip, the keys of CANN's platform files that samples "
           "read (installed copies: compiler/data/platform_config/<soc>.ini)");
    t.flag("--options_markdown", &O::options_markdown,
           "print this option table as Markdown (docs/options.md)");
    return t;
  }();
  return t;
}

Result<Options> parseOptions(int argc, const char* const* argv) {
  ASC_TRY(Options o, optionTable().parse(argc, argv));
  for (int i = 0; i < argc; ++i) o.cmdline += (i ? " " : "") + std::string(argv[i]);
  return o;
}

std::string usage() {
  return "usage: atc <args>\n"
         "example:\n"
         "  atc --model=resnet50.onnx --framework=5 --output=out/resnet50 \\\n"
         "      --soc_version=Ascend910B1 --input_shape=\"input:1,3,224,224\"\n"
         "  atc --mode=6 --om=out/resnet50.om\n"
         "  atc --mode=1 --om=out/resnet50.om --json=resnet50.json\n"
         "then run it: msame --model out/resnet50.om --output run/\n\n"
         "options (--name=value or --name value):\n" +
         optionTable().help();
}

}  // namespace asc::atc
