// msprof_options.h: msprof's command line. Both spellings of the real tool work:
//   msprof [options] <app> [args]        and        msprof [options] --application="<app> <args>"
// Options are --name=value (or --name value for options that take one), hyphenated as the real
// tool spells them; the seed documents' underscored spellings are accepted too. Anything else is
// rejected (E10001), naming the option.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "asc/support/status.h"

namespace asc::msprof {

struct Options {
  std::string output;                // parent of PROF_* (collection) or a PROF_* folder (export)
  std::string application;           // --application="<app> <args>" (run through /bin/sh -c)
  std::vector<std::string> command;  // msprof [options] <app> [args]
  std::string export_mode;           // "", "on", "prometheus"
  std::string soc_version;           // chip of the estimates ("" = the model's)
  bool sampling = true;              // data sampling (CPU utilisation, RSS) as counters
  int sampling_hz = 10;
  std::string log;
  bool help = false, version = false;
  std::map<std::string, std::string> given;  // every option, canonical name -> value
};

/// Parses argv; E10001 for an unknown option or a bad value, E10004 for an empty one, E10055
/// for a real option asc-tools does not implement (naming it).
Result<Options> parseOptions(int argc, const char* const* argv);
std::string usage();

}  // namespace asc::msprof
