// msprof_options.h: msprof's command line, from one table (msprof_options.cpp: the parser,
// --help and docs/options.md). Both spellings of the real tool work:
//   msprof [options] <app> [args]        and        msprof [options] --application="<app> <args>"
// Options are --name=value (or --name value for options that take one), hyphenated as the real
// tool spells them; the seed documents' underscored spellings are accepted too. Anything else is
// rejected (E10001), naming the option.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "asc/cli/options.h"
#include "asc/support/status.h"

namespace asc::msprof {

struct Options : cli::Given {
  std::string output;                // parent of PROF_* (collection) or a PROF_* folder (export)
  std::string application;           // --application="<app> <args>" (run through /bin/sh -c)
  std::vector<std::string> command;  // msprof [options] <app> [args]
  std::string export_mode;           // "", "on", "prometheus"
  std::string parse;                 // on: same as --export=on
  std::string soc_version;           // chip of the estimates ("" = the model's)
  std::string type, summary_format;  // export type and summary format
  // Data sampling (CPU utilisation, RSS) as counters: every switch and rate that steers it.
  std::string data_sampling_on, sys_profiling, sys_cpu_profiling, sys_hardware_mem;
  int sys_sampling_freq = 0, sys_cpu_freq = 0, sys_hardware_mem_freq = 0, sys_pid_sampling_freq = 0;
  bool sampling = true;  // derived from the above
  int sampling_hz = 10;
  std::string log;
  std::string help, version, options_markdown;  // on when given
};

/// The table every option of msprof is declared in.
const cli::OptionTable<Options>& optionTable();
/// Parses argv; E10001 for an unknown option or a bad value, E10004 for an empty one, E10055
/// for a real option asc-tools does not implement (naming it).
Result<Options> parseOptions(int argc, const char* const* argv);
std::string usage();
/// msprof's one way to report a failure: "msprof: error <code>: <what>" on stderr (after what
/// stdout holds), and the exit status to return: cli::kExitUsage for a command line msprof
/// cannot run, cli::kExitFailed when profiling failed.
int reportError(std::ostream& out, std::ostream& err, const Status& st, int exit_code);

}  // namespace asc::msprof
