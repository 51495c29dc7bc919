#!/usr/bin/env bash
# run_cli_test.sh TEST BIN_DIR DATA_DIR TMP_DIR: runs one CLI behaviour test. The test script
# uses the helpers below; the first failed expectation stops it with a message and exit 1.
set -u
test_script=$1
BIN=$2
DATA=$3
TMP=$4
rm -rf "$TMP" && mkdir -p "$TMP"
export PATH="$BIN:$PATH"
ROOT=$(cd "$(dirname "$0")/.." && pwd)

STDOUT="$TMP/.stdout"
STDERR="$TMP/.stderr"
STATUS=0
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
expect_exit() { [ "$STATUS" -eq "$1" ] || fail "exit status $STATUS, expected $1"; }
expect_exit_nonzero() { [ "$STATUS" -ne 0 ] || fail "exit status 0, expected non-zero"; }
expect_stdout_contains() { grep -qF -- "$1" "$STDOUT" || fail "stdout lacks '$1'"; }
expect_stdout_not_contains() { ! grep -qF -- "$1" "$STDOUT" || fail "stdout has '$1'"; }
expect_stderr_contains() { grep -qF -- "$1" "$STDERR" || fail "stderr lacks '$1'"; }
expect_stdout_line() { grep -qxF -- "$1" "$STDOUT" || fail "stdout has no line '$1'"; }
expect_file() { [ -s "$1" ] || fail "file '$1' missing or empty"; }
expect_no_file() { [ ! -e "$1" ] || fail "file '$1' exists, expected none"; }
expect_no_temp_files() {
  local left
  left=$(find "$1" -name '*.tmp.*' 2>/dev/null | head -1)
  [ -z "$left" ] || fail "temporary file '$left' left behind"
}

cd "$TMP"
# shellcheck source=/dev/null
source "$test_script"
echo "PASS $(basename "$test_script")"
