#!/usr/bin/env bash
# test.sh: installs what is missing, configures, builds on all cores and runs every test.
# BUILD_DIR (default: build) chooses the build folder. Exits non-zero on any failure, and when
# no test was found (a cache configured with -DASC_BUILD_TESTS=OFF, e.g. by an older demo.sh,
# is switched back on here, so the tests are always built). Tests that cannot run on this
# machine (a missing optional tool or data set) are reported by ctest as "Not Run (Skipped)".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
# --sanitize: the whole project built with ASan + UBSan in build-sanitize/ and every test run
# there (runtime options and third-party-only suppressions: tests/sanitizers/).
# Arguments after --sanitize (or after none) go to ctest: `scripts/test.sh --sanitize -R '^unit: '`
# runs only the unit tests there.
ctest_args=()
if [ "${1:-}" = --sanitize ]; then
  shift
  ctest_args=("$@")
  build=${BUILD_DIR:-$root/build-sanitize}
  san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -g1"
  export CXXFLAGS="$san" LDFLAGS="$san"  # CMake reads these when it first configures $build
  source "$root/tests/sanitizers/env.sh"
elif [ $# -gt 0 ]; then
  case "$1" in
    -R|-E|-L|-LE) ctest_args=("$@") ;;
    *) echo "test.sh: unknown arguments '$*' (use [--sanitize] [-R|-E REGEX])" >&2; exit 2 ;;
  esac
fi

"$root/scripts/install-deps.sh" --test
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DASC_BUILD_TESTS=ON
cmake --build "$build" -j "$(nproc)"
cd "$build"
# ctest runs $(nproc) tests at once, each tool on every core: idle OpenMP threads must sleep, not
# spin, or they starve each other (a 2-thread squeezenet run on a busy 2-core machine: 153 ms
# spinning, 24 ms passive; docs/runtime.md). A caller's own choice is kept.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
# The default thread count follows the work only, not the machine's load (docs/runtime.md):
# tests that compare two runs' bytes then get one count however busy the machine is.
export ASC_THREADS_FOLLOW_LOAD=${ASC_THREADS_FOLLOW_LOAD:-0}
ctest --output-on-failure --no-tests=error -j "$(nproc)" ${ctest_args[@]+"${ctest_args[@]}"}
