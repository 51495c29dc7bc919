// mscompare_commands.h: mscompare's subcommands beside the comparison itself (mscompare.cpp):
// debug_precision and debug_reduce (debug_commands.cpp), overflow (overflow.cpp). Each takes
// the arguments after the subcommand's name (argv[0] is the name) and returns the exit status.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "asc/support/status.h"

namespace asc::mscompare {

int debugMain(const std::string& cmd, int argc, const char* const* argv, std::ostream& out);
int overflowMain(int argc, const char* const* argv, std::ostream& out);

/// mscompare's one way to report a failure: "mscompare: error <code>: <what>" on stderr (and,
/// with `json`, the error as JSON there), exit status 2.
int fail(const Status& st, std::ostream* json = nullptr);

/// Every file under `dir`, recursively, in name order.
Status walkFiles(const std::string& dir, std::vector<std::string>* files);

}  // namespace asc::mscompare
