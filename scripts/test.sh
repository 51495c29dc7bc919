#!/usr/bin/env bash
# test.sh: installs what is missing, configures, builds on all cores and runs every test.
# BUILD_DIR (default: build) chooses the build folder. Exits non-zero on any failure.
#   --sanitize  the whole project built with ASan + UBSan in build-sanitize/ (suppressions for
#               third-party frames only: tests/sanitizers/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake_extra=()
for arg in "$@"; do
  case "$arg" in
    --sanitize)
      build=${BUILD_DIR:-$root/build-sanitize}
      san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -g1"
      cmake_extra=("-DCMAKE_CXX_FLAGS=$san" "-DCMAKE_EXE_LINKER_FLAGS=$san" "-DCMAKE_SHARED_LINKER_FLAGS=$san")
      source "$root/tests/sanitizers/env.sh" ;;
    *) echo "test.sh: unknown option '$arg' (use --sanitize)" >&2; exit 2 ;;
  esac
done

"$root/scripts/install-deps.sh" --test
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${cmake_extra[@]}"
cmake --build "$build" -j "$(nproc)"
cd "$build"
ctest --output-on-failure -j "$(nproc)"
