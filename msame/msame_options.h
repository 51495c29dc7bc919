// msame_options.h: msame's command line (getopt_long style: --opt value or --opt=value).
#pragma once

#include <string>

#include "asc/support/status.h"

namespace asc::msame {

struct Options {
  std::string model, input, output, outfmt = "BIN";
  int loop = 1;
  int max_loop = 100;  // the real tool's cap; --max_loop raises it for benchmarks
  std::string dump = "false", profiler = "false", debug = "false";
  std::string skip_verify = "false";  // (asc-tools) true: no integrity check of the .om at load
  std::string check_unwritten =
      "false";                       // (asc-tools) true: custom kernels' unwritten outputs fail
  std::string dump_mode = "output";  // output, input or all (acl.json's dump_mode values)
  std::string dump_format;           // ascend (default for .om) or npy; .onnx: golden .npy
  int device = 0;
  std::string output_size, dym_batch, dym_hw, dym_dims, dym_shape;
  std::string input_shape;  // ONNX models only: pins dynamic input dims
  int threads = 0;
  std::string log;
  std::string op_plugin_path;  // --op_plugin_path (asc-tools extra), else ASCEND_CUSTOM_OPP_PATH //
                               // --log (asc-tools extra): empty keeps warnings
  int random_input = -1;       // >= 0: seed for uniform random inputs instead of zeros
  // --shard i/N (asc-tools extra): directory mode runs the input files k with k mod N == i, into
  // <output>/shard_<i>_of_<N>/ with a manifest.jsonl; --resume skips the inputs it records done.
  int shard_index = -1, shard_count = 0;
  bool resume = false;
  // Throughput mode (asc-tools; msame/throughput.h): untimed warm-up runs, seconds of runs,
  // requests in flight, and the JSON summary file.
  int warmup = 0;
  double duration_s = 0;
  int concurrency = 1;
  std::string summary_json;
  bool help = false, version = false, no_args = false;
};

/// Parses argv. Errors carry the real tool's message text (without the "[ERROR] " prefix).
Result<Options> parseOptions(int argc, const char* const* argv);
std::string usage();

}  // namespace asc::msame
