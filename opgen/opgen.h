// opgen.h: the opgen tool: msopgen's command line over libasccore's generator (asc/opgen).
#pragma once

#include <ostream>

namespace asc::opgen_tool {

/// Runs opgen; returns msopgen's exit code (0, or 11..17 for a bad option or op JSON, 101 for
/// an invalid project path, the build's status for a failed compile).
int main(int argc, char** argv, std::ostream& out);

}  // namespace asc::opgen_tool
