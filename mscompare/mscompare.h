// mscompare.h: the mscompare tool as a library, so tests call main() directly.
#pragma once

#include <ostream>

namespace asc::mscompare {

/// The whole tool: prints the summary (table or JSON) on `out`, messages on stderr, and returns
/// the exit status: 0 every tensor within tolerance, 1 any outside, 2 on error.
int main(int argc, const char* const* argv, std::ostream& out);

}  // namespace asc::mscompare
