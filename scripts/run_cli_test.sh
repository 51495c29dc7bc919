#!/usr/bin/env bash
# run_cli_test.sh TEST BIN_DIR DATA_DIR TMP_DIR: runs one CLI behaviour test. The test script
# uses the helpers below; the first failed expectation stops it with a message and exit 1.
# A test that cannot run on this machine (a missing optional tool or data set) calls
# `skip "reason"`, which exits 77: CTest reports it as skipped (SKIP_RETURN_CODE), never as a
# pass. A test passes only when it reaches its end having checked at least one expectation; an
# early `exit 0` is a failure.
set -u
test_script=$1
BIN=$2
DATA=$3
TMP=$4
[ -f "$test_script" ] || { echo "FAIL: no test script '$test_script'"; exit 1; }
test_script=$(cd "$(dirname "$test_script")" && pwd)/$(basename "$test_script")
rm -rf "$TMP" && mkdir -p "$TMP"
export PATH="$BIN:$PATH"
ROOT=$(cd "$(dirname "$0")/.." && pwd)

STDOUT="$TMP/.stdout"
STDERR="$TMP/.stderr"
STATUS=0
CHECKS=0      # expectations checked (in this shell)
FINISHED=0
fail() {
  echo "FAIL ($test_script): $*"
  echo "--- last command: ${LAST_CMD:-}"
  echo "--- stdout:"; cat "$STDOUT" 2>/dev/null
  echo "--- stderr:"; cat "$STDERR" 2>/dev/null
  exit 1
}
# run CMD...: runs a command, keeping its stdout, stderr and exit status.
run() {
  LAST_CMD="$*"
  "$@" >"$STDOUT" 2>"$STDERR" </dev/null
  STATUS=$?
}
# skip REASON: the test cannot run here; reported as skipped (exit 77), not passed.
skip() {
  echo "SKIP ($(basename "$test_script")): $*"
  FINISHED=1
  exit 77
}
on_exit() {
  local status=$?
  if [ "$status" -eq 0 ] && [ "$FINISHED" -ne 1 ]; then
    echo "FAIL ($test_script): exited with status 0 before its end (a test that cannot run" \
         "calls skip \"reason\")"
    exit 1
  fi
}
trap on_exit EXIT
expect_exit() { CHECKS=$((CHECKS + 1)); [ "$STATUS" -eq "$1" ] || fail "exit status $STATUS, expected $1"; }
expect_exit_nonzero() { CHECKS=$((CHECKS + 1)); [ "$STATUS" -ne 0 ] || fail "exit status 0, expected non-zero"; }
expect_stdout_contains() { CHECKS=$((CHECKS + 1)); grep -qF -- "$1" "$STDOUT" || fail "stdout lacks '$1'"; }
expect_stdout_not_contains() { CHECKS=$((CHECKS + 1)); ! grep -qF -- "$1" "$STDOUT" || fail "stdout has '$1'"; }
expect_stderr_contains() { CHECKS=$((CHECKS + 1)); grep -qF -- "$1" "$STDERR" || fail "stderr lacks '$1'"; }
expect_stderr_not_contains() { CHECKS=$((CHECKS + 1)); ! grep -qF -- "$1" "$STDERR" || fail "stderr has '$1'"; }
expect_stdout_line() { CHECKS=$((CHECKS + 1)); grep -qxF -- "$1" "$STDOUT" || fail "stdout has no line '$1'"; }
expect_file() { CHECKS=$((CHECKS + 1)); [ -s "$1" ] || fail "file '$1' missing or empty"; }
# expect_msame_bytes FILE DIR PATTERN: FILE is byte for byte the file msame wrote as DIR/*/PATTERN.
expect_msame_bytes() {
  CHECKS=$((CHECKS + 1))
  local m
  m=$(ls "$2"/*/$3 2>/dev/null | head -1)
  [ -n "$m" ] || fail "msame wrote no $3 under $2"
  cmp "$1" "$m" >/dev/null || fail "$1 differs from msame's $m"
}
# expect_close_npy GOT.bin WANT [TOL]: msame's raw float32 output GOT matches the reference WANT
# (a .npy of any float dtype, or raw float32) to rtol = atol = TOL (default 1e-5).
expect_close_npy() {
  CHECKS=$((CHECKS + 1))
  [ -f "$1" ] || fail "no output file '$1'"
  /usr/bin/python3 - "$1" "$2" "${3:-1e-5}" <<'PY' >"$STDOUT" 2>&1 || fail "$1 does not match $2: $(cat "$STDOUT")"
import sys
import numpy as np
want = np.load(sys.argv[2]) if sys.argv[2].endswith(".npy") else np.fromfile(sys.argv[2], np.float32)
tol = float(sys.argv[3])
got = np.fromfile(sys.argv[1], np.float32)
if got.size != want.size:
    sys.exit("%d values, expected %s" % (got.size, want.shape))
diff = np.abs(got.reshape(want.shape) - want)
sys.exit(0 if np.allclose(got.reshape(want.shape), want, rtol=tol, atol=tol) else "max |diff| %g" % diff.max())
PY
}
expect_no_file() { CHECKS=$((CHECKS + 1)); [ ! -e "$1" ] || fail "file '$1' exists, expected none"; }
expect_no_temp_files() {
  CHECKS=$((CHECKS + 1))
  local left
  left=$(find "$1" -name '*.tmp.*' 2>/dev/null | head -1)
  [ -z "$left" ] || fail "temporary file '$left' left behind"
}

cd "$TMP"
# shellcheck source=/dev/null
source "$test_script"
[ "$CHECKS" -gt 0 ] || fail "the test checked no expectation"
FINISHED=1
echo "PASS $(basename "$test_script") ($CHECKS checks)"
