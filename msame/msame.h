// msame.h: the msame tool as a library, so tests call main() directly.
#pragma once

#include <ostream>

namespace asc::msame {

/// The whole tool: prints the real msame's lines on `out` and returns the exit status (0
/// success, 1 failure).
int main(int argc, const char* const* argv, std::ostream& out);

}  // namespace asc::msame
