// msprof.h: the msprof tool as a library, so tests call main() directly.
#pragma once

#include <ostream>

namespace asc::msprof {

/// The whole tool. Collection returns the profiled command's exit status (128 + signal when it
/// was killed); export returns 0 or 1; a usage error returns 2.
int main(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace asc::msprof
