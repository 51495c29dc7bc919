// atc.h: the atc tool as a library, so tests call run() directly.
#pragma once

#include <ostream>

#include "asc/support/status.h"
#include "atc_options.h"

namespace asc::atc {

/// Runs one atc invocation. Lines the real tool prints on stdout (mode-6 info, lists) go to
/// `out`; the caller prints the start and verdict lines. Returns the first error.
Status run(const Options& opts, std::ostream& out);

/// The whole tool: start line, run, verdict line and errors on `out`; returns the exit status
/// (0 success, 255 failure, as the real atc's FAILED status reaches the shell).
int main(int argc, const char* const* argv, std::ostream& out);

}  // namespace asc::atc
