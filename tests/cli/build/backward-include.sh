# libasccore's layers (cmake/AscLayers.cmake): a lower module including a higher one fails the
# build twice over. The configure-time check names the file, the include and the rule; and each
# module compiles against an include view holding only what it may include, so the compiler
# cannot find a higher layer's header either.
run cmake -DASC_ROOT="$ROOT" -P "$ROOT/cmake/AscLayers.cmake"
expect_exit 0
expect_stdout_contains "libasccore layering: OK"

# A tree in which ir includes runtime.
mkdir -p tree/libasccore/src/ir tree/libasccore/include/asc/ir
printf '#include "asc/ir/graph.h"\n#include "asc/runtime/session.h"\n' > tree/libasccore/src/ir/bad.cpp
run cmake -DASC_ROOT="$PWD/tree" -P "$ROOT/cmake/AscLayers.cmake"
expect_exit_nonzero
expect_stderr_contains "libasccore/src/ir/bad.cpp"
expect_stderr_contains "ir may not include runtime"
# A private header of a higher layer is caught the same way.
printf '#include "runtime/trace_observer.h"\n' > tree/libasccore/src/ir/bad.cpp
run cmake -DASC_ROOT="$PWD/tree" -P "$ROOT/cmake/AscLayers.cmake"
expect_exit_nonzero
expect_stderr_contains "ir may not include runtime"

# The compiler sees the same wall: ir's view has ir and support, not runtime.
view="$BIN/../libasccore/layers/ir"
[ -d "$view/asc/ir" ] || fail "no include view for ir at $view"
printf '#include "asc/ir/graph.h"\nint main() { asc::ir::Graph g; return 0; }\n' > good.cpp
run c++ -std=c++17 -fsyntax-only -I "$view" good.cpp
expect_exit 0
printf '#include "asc/ir/graph.h"\n#include "asc/runtime/session.h"\n' > bad.cpp
run c++ -std=c++17 -fsyntax-only -I "$view" bad.cpp
expect_exit_nonzero
expect_stderr_contains "asc/runtime/session.h"
