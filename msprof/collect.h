// collect.h: the collection side of msprof: naming the PROF_ folder, measuring this machine's
// peak, launching the command with tracing on, and sampling CPU use and memory while it runs.
#pragma once

#include <string>
#include <vector>

#include "asc/support/status.h"
#include "asc/trace/profile.h"

namespace asc::msprof {

/// "PROF_<6 digits>_<YYYYMMDDhhmmssmmm>_<16 upper-case letters and digits>"; *timestamp gets
/// the YYYYMMDDhhmmss used in file names.
std::string profDirName(std::string* timestamp);
/// msprof op's "OPPROF_<YYYYMMDDhhmmss>_<16 upper-case letters>".
std::string opprofDirName();

/// --application's command as the shell runs it: an application named without a folder
/// (--application="execute_op", as operator projects' scripts write it) that is an executable
/// file here runs from here, as msprof takes it for a path (UNCONFIRMED: CANN's msprof checks the
/// application as a file); any other first word is looked up on PATH.
std::string applicationCommand(const std::string& app);

/// Peak fp32 GFLOP/s of one core running FMA loops (AVX-512 where the CPU has it, else AVX2): the
/// best of several short trials, so a machine shared with other work still shows its peak (about
/// 0.1 s).
double measureCorePeakGflops();

struct Launch {
  std::vector<std::string> argv;  // run with execvp; or, when empty, `shell` through /bin/sh -c
  std::string shell;
  std::string prof_dir;  // absolute; exported as ASC_PROF_DIR
  bool sampling = true;
  int sampling_hz = 10;
};

/// Starts the command, samples it until it ends, returns its exit status (128 + signal when it
/// was killed; 127 when it could not be started). E19999 when fork fails.
Result<int> launchAndWait(const Launch& l, std::vector<trace::Sample>* samples);

}  // namespace asc::msprof
