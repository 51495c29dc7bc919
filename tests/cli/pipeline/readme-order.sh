# The README's order in a fresh clone, scripts/demo.sh and then scripts/test.sh, runs the tests:
# the build folder demo.sh configures keeps ASC_BUILD_TESTS on, test.sh configures with tests
# on and runs ctest with --no-tests=error, and that ctest lists every CLI test of the tree and
# the unit tests (the asc_unit_tests target and its discovery). Both scripts run unchanged from
# a `git clone` of the repository (the committed state). To stay quick, nothing is compiled:
# a `cmake` wrapper first on PATH passes configure calls to the real cmake and turns
# `cmake --build` into a copy of this build's atc and msame (the tools are not what is tested
# here), and a `ctest` wrapper records its arguments and lists the tests instead of running them.
command -v git >/dev/null || skip "git is not installed"
clone="$TMP/clone"
git clone -q "$ROOT" "$clone" 2>"$TMP/clone.err" || fail "git clone $ROOT failed: $(cat "$TMP/clone.err")"

shims="$TMP/shims"
mkdir -p "$shims"
export REAL_CMAKE REAL_CTEST OUTER_BIN="$BIN" SHIM_LOG="$TMP/shim.log"
REAL_CMAKE=$(command -v cmake)
REAL_CTEST=$(command -v ctest)
cat > "$shims/cmake" <<'SH'
#!/usr/bin/env bash
if [ "${1:-}" = --build ]; then
  echo "cmake $*" >> "$SHIM_LOG"
  mkdir -p "$2/bin" && cp "$OUTER_BIN/atc" "$OUTER_BIN/msame" "$2/bin/"
  exit
fi
exec "$REAL_CMAKE" "$@"
SH
cat > "$shims/ctest" <<'SH'
#!/usr/bin/env bash
echo "ctest $*" >> "$SHIM_LOG"
exec "$REAL_CTEST" -N
SH
chmod +x "$shims/cmake" "$shims/ctest"
export PATH="$shims:$PATH"

cache="$clone/build/CMakeCache.txt"
run env -u BUILD_DIR DEMO_OUT="$TMP/demo-out" "$clone/scripts/demo.sh"
expect_exit 0
expect_stdout_contains "Execute sample success"
expect_file "$cache"
grep -qx "ASC_BUILD_TESTS:BOOL=ON" "$cache" ||
  fail "after demo.sh the build cache has $(grep ASC_BUILD_TESTS: "$cache" || echo 'no ASC_BUILD_TESTS')"

run env -u BUILD_DIR "$clone/scripts/test.sh"
expect_exit 0
grep -qx "ASC_BUILD_TESTS:BOOL=ON" "$cache" || fail "test.sh left ASC_BUILD_TESTS off"
grep -q "^ctest .*--no-tests=error" "$SHIM_LOG" || fail "test.sh runs ctest without --no-tests=error: $(cat "$SHIM_LOG")"
grep -q "^cmake --build $clone/build" "$SHIM_LOG" || fail "test.sh does not build $clone/build"

# Every CLI test of the clone is listed, and the unit tests are built and discovered.
cli_count=$(find "$clone/tests/cli" -name '*.sh' | wc -l)
listed=$(grep -c ": cli: " "$STDOUT" || true)
[ "$cli_count" -ge 40 ] || fail "only $cli_count CLI test scripts in the clone"
[ "$listed" -eq "$cli_count" ] || fail "ctest lists $listed CLI tests, the tree has $cli_count"
grep -q "asc_unit_tests" "$clone/build/tests/CTestTestfile.cmake" ||
  fail "the unit tests are not discovered in $clone/build"
run "$REAL_CMAKE" --build "$clone/build" --target help
expect_stdout_contains "asc_unit_tests"
