// msame_options.h: msame's command line (getopt_long style: --opt value or --opt=value), read
// into typed members from one table (msame_options.cpp: the parser, --help and docs/options.md).
#pragma once

#include <string>

#include "asc/cli/options.h"
#include "asc/support/status.h"

namespace asc::msame {

struct Options : cli::Given {
  std::string model, input, output, outfmt;
  int loop = 1, max_loop = 100, device = 0;
  bool dump = false, debug = false;
  bool skip_verify = false;      // (asc-tools) no integrity check of the .om at load
  bool check_unwritten = false;  // (asc-tools) custom kernels' unwritten outputs fail the run
  std::string dump_mode;         // output, input or all (acl.json's dump_mode values)
  std::string dump_format;       // ascend (default for .om) or npy; .onnx: golden .npy
  std::string output_size, dym_batch, dym_hw, dym_dims, dym_shape;
  std::string input_shape;     // ONNX models only: pins dynamic input dims
  int threads = 0;             // 0: the runtime's choice
  std::string log;             // empty keeps warnings
  std::string op_plugin_path;  // else ASCEND_CUSTOM_OPP_PATH
  int random_input = -1;       // >= 0: seed for uniform random inputs instead of zeros
  // --shard i/N: directory mode runs the input files k with k mod N == i, into
  // <output>/shard_<i>_of_<N>/ with a manifest.jsonl; --resume skips the inputs it records done.
  std::string shard;
  int shard_index = -1, shard_count = 0;
  bool resume = false;
  // Throughput mode (msame/throughput.h): untimed warm-up runs, seconds of runs, requests in
  // flight, and the JSON summary file.
  int warmup = 0;
  double duration_s = 0;
  int concurrency = 1;
  std::string summary_json;
  bool help = false, version = false, options_markdown = false;
};

/// The table every option of msame is declared in.
const cli::OptionTable<Options>& optionTable();
/// Parses argv. Errors carry the real tool's message text (without the "[ERROR] " prefix).
Result<Options> parseOptions(int argc, const char* const* argv);
std::string usage();

}  // namespace asc::msame
