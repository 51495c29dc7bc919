// atc_options.h: atc's command line, parsed the way the real atc (gflags) accepts it:
// --name=value or --name value, --help/--h. Every option of the real atc (ascend-facts.md 1.4)
// is a row of one table (atc_options.cpp), from which the parser, --help and docs/options.md
// come; the ones asc-tools does not implement are refused with E10055 unless given their
// default, so nothing is silently ignored.
#pragma once

#include <string>

#include "asc/cli/options.h"
#include "asc/support/status.h"

namespace asc::atc {

struct Options : cli::Given {
  // The implemented options, each holding its value or the table's default. Text as typed:
  // the modes check them with the real atc's messages.
  std::string mode, model, weight, framework, om, json, output, soc_version, input_format,
      input_shape, log, dump_mode, precision_mode, check_report, input_shape_range,
      dynamic_batch_size, dynamic_image_size, dynamic_dims, output_type, core_type, out_nodes,
      input_fp16_nodes, insert_op_conf, op_name_map, op_plugin_path, disable_reuse_memory,
      memory_config, op_blacklist, fusion_switch_file, enable_small_channel, buffer_optimize,
      external_weight, modify_mixlist, keep_dtype, op_select_implmode, optypelist_for_implmode,
      oo_level, optimize, optimization_switch, singleop;
  bool check_equivalence = false, save_original_model = false;
  std::string ops_info_dir;         // --ops_info=DIR
  std::string platform_config_dir;  // --platform_config=DIR
  bool help = false, version = false, list_ops = false, list_caffe_layers = false,
       list_tf_ops = false, compatibility = false, list_errors = false, list_passes = false,
       options_markdown = false;
  std::string cmdline;  // the command line as typed (for atc_cmdline)
};

/// The table every option of atc is declared in.
const cli::OptionTable<Options>& optionTable();
/// Parses argv. E10001 for an unknown option or a missing value, E10055 for an option asc-tools
/// does not implement given a value other than its default.
Result<Options> parseOptions(int argc, const char* const* argv);
/// The --help text.
std::string usage();

}  // namespace asc::atc
