// mscompare_options.h: mscompare's command line. Two spellings of the same options: the seed's
// (--baseline, --comparison, --compare_mode) and the real msaccucmp's (-g/--golden_dump_path,
// -m/--my_dump_path, -alg/--algorithm, -f/--fusion_rule_file, -out/--output).
#pragma once

#include <optional>
#include <string>

#include "asc/support/status.h"

namespace asc::mscompare {

struct Options {
  std::string my_path;      // --comparison, -m/--my_dump_path: the NPU / asc-tools side (x)
  std::string golden_path;  // --baseline, -g/--golden_dump_path: the reference side (y)
  std::string fusion_rule_file;
  std::string output = ".";
  std::string algorithm = "all";  // --compare_mode, -alg/--algorithm
  std::string dtype = "float32";  // element type of raw .bin/.txt files
  std::string format = "table";   // table or json (stdout)
  std::optional<double> atol, rtol;
  /// A tensor also fails when its cosine similarity is below this (NaN cosine: the tolerance
  /// decides). Used where drift is expected, e.g. an fp16 OM against the fp32 golden.
  std::optional<double> min_cosine;
  std::string log = "warning";
  /// --html: also write a self-contained page (charts per layer, the table) to this file.
  std::string html;
  int threads = 0;  // --threads; 0: OpenMP's default (all cores)
  bool help = false, version = false;
};

/// Parses argv (multi-letter short options such as -out and -alg are rewritten to their long
/// forms first). E10001 for an unknown option or a bad value, E10004 for an empty one.
Result<Options> parseOptions(int argc, const char* const* argv);
std::string usage();

}  // namespace asc::mscompare
