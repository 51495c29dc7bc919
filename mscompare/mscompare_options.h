// mscompare_options.h: mscompare's command line. Two spellings of the same options: the seed's
// (--baseline, --comparison, --compare_mode) and the real msaccucmp's (-g/--golden_dump_path,
// -m/--my_dump_path, -alg/--algorithm, -f/--fusion_rule_file, -out/--output).
#pragma once

#include <optional>
#include <string>

#include "asc/cli/options.h"
#include "asc/support/status.h"

namespace asc::mscompare {

struct Options : cli::Given {
  std::string my_path;      // --comparison, -m/--my_dump_path: the NPU / asc-tools side (x)
  std::string golden_path;  // --baseline, -g/--golden_dump_path: the reference side (y)
  std::string fusion_rule_file;
  std::string output;
  std::string algorithm;  // --compare_mode, -alg/--algorithm
  std::string dtype;      // element type of raw .bin/.txt files
  std::string format;     // table or json (stdout)
  std::optional<double> atol, rtol;
  /// A tensor also fails when its cosine similarity is below this (NaN cosine: the tolerance
  /// decides). Used where drift is expected, e.g. an fp16 OM against the fp32 golden.
  std::optional<double> min_cosine;
  std::string log;
  /// --html: also write a self-contained page (charts per layer, the table) to this file.
  std::string html;
  int threads = 0;  // --threads; 0: OpenMP's default (all cores)
  bool help = false, version = false, options_markdown = false;
};

/// The table every option of mscompare's comparison is declared in.
const cli::OptionTable<Options>& optionTable();

/// Parses argv (msaccucmp's spellings, -out and -alg included). E10001 for an unknown option or
/// a bad value, E10004 for an empty one, E10006 when a required one is missing.
Result<Options> parseOptions(int argc, const char* const* argv);
std::string usage();

}  // namespace asc::mscompare
