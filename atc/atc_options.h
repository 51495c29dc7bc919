// atc_options.h: atc's command line, parsed the way the real atc (gflags) accepts it:
// --name=value or --name value, --help/--h.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "asc/support/status.h"

namespace asc::atc {

struct Options {
  std::map<std::string, std::string> values;  // every option given, by name
  std::string cmdline;                        // the command line as typed (for atc_cmdline)
  bool help = false;
  bool version = false;
  bool list_ops = false;
  bool list_caffe_layers = false;
  bool list_tf_ops = false;
  bool compatibility = false;
  bool list_errors = false;
  bool list_passes = false;
  std::string ops_info_dir;  // --ops_info=DIR

  bool given(const std::string& name) const { return values.count(name) != 0; }
  /// The value given, or the option's documented default.
  std::string get(const std::string& name) const;
};

/// Parses argv. E10001 for an unknown option or a missing value.
Result<Options> parseOptions(int argc, const char* const* argv);
/// The --help text.
std::string usage();

/// Option names, defaults and whether asc-tools implements them yet.
struct OptionSpec {
  const char* name;
  const char* default_value;
  const char* help;
  bool implemented;
};
const std::vector<OptionSpec>& optionSpecs();

}  // namespace asc::atc
