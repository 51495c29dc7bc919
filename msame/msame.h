// msame.h: the msame tool as a library, so tests call main() directly.
#pragma once

#include <functional>
#include <ostream>

namespace asc::runtime {
class Session;
class StepObserver;
}  // namespace asc::runtime

namespace asc::msame {

/// What a program embedding msame (a test tool) adds to a run; the msame command sets none.
struct Hooks {
  /// Called once the model is loaded; the observer it returns (may be null, not owned, must
  /// outlive the run) sees every step before msame's own layer dumper, so the dumps show what
  /// it changed (Session::writeValue).
  std::function<runtime::StepObserver*(runtime::Session&)> observer;
};

/// The whole tool: prints the real msame's lines on `out` and returns the exit status (0
/// success, 1 failure).
int main(int argc, const char* const* argv, std::ostream& out, const Hooks& hooks = {});

}  // namespace asc::msame
