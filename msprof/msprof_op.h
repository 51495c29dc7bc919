// msprof_op.h: `msprof op [simulator] [options] <app>`, the operator tuning mode (msOpProf):
// runs an Ascend C program and reports each kernel launch it makes on the CPU twin.
#pragma once

#include <ostream>
#include <string>

namespace asc::msprof {

/// argv[0] is "msprof", argv[1] "op". Returns the program's exit status, 2 for a command line
/// msprof cannot run, 1 when the results cannot be written.
int opMain(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

/// --application's command as the shell runs it: an executable file named without a folder runs
/// from here (operator projects' scripts write --application="execute_op").
std::string applicationCommand(const std::string& app);

}  // namespace asc::msprof
