// msprof_op.h: `msprof op [simulator] [options] <app>`, the operator tuning mode (msOpProf):
// runs an Ascend C program and reports each kernel launch it makes on the CPU twin.
#pragma once

#include <ostream>

namespace asc::msprof {

/// argv[0] is "msprof", argv[1] "op". Returns the program's exit status, 2 for a command line
/// msprof cannot run, 1 when the results cannot be written.
int opMain(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace asc::msprof
