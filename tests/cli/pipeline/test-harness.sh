# scripts/run_cli_test.sh cannot report a pass by accident: a test that exits 0 before its
# end fails, a test that checks nothing fails, `skip "reason"` exits 77 (CTest: skipped), a
# failed expectation exits 1, and a complete test with checks passes.
harness="$ROOT/scripts/run_cli_test.sh"
mk() { printf '%s\n' "$2" > "$TMP/$1.sh"; }
mk early-exit 'run true
exit 0
expect_exit 1'
mk early-return 'run true
expect_exit 0
return 0'
mk no-checks 'run true'
mk skips 'skip "no such data set here"
expect_exit 0'
mk fails 'run false
expect_exit 0'
mk passes 'run true
expect_exit 0
expect_no_file "$TMP/nothing"'

run bash "$harness" "$TMP/early-exit.sh" "$BIN" "$DATA" "$TMP/t1"
expect_exit 1
expect_stdout_contains "exited with status 0 before its end"
expect_stdout_not_contains "PASS"

run bash "$harness" "$TMP/no-checks.sh" "$BIN" "$DATA" "$TMP/t2"
expect_exit 1
expect_stdout_contains "checked no expectation"

run bash "$harness" "$TMP/skips.sh" "$BIN" "$DATA" "$TMP/t3"
expect_exit 77
expect_stdout_contains "SKIP (skips.sh): no such data set here"
expect_stdout_not_contains "PASS"

run bash "$harness" "$TMP/fails.sh" "$BIN" "$DATA" "$TMP/t4"
expect_exit 1
expect_stdout_contains "exit status 1, expected 0"

run bash "$harness" "$TMP/passes.sh" "$BIN" "$DATA" "$TMP/t5"
expect_exit 0
expect_stdout_contains "PASS passes.sh (2 checks)"

# `return` at the top level only leaves the script; the checks before it still count.
run bash "$harness" "$TMP/early-return.sh" "$BIN" "$DATA" "$TMP/t6"
expect_exit 0
expect_stdout_contains "PASS early-return.sh (1 checks)"

# No test script stops early with status 0 or prints SKIP by hand: skip "reason" is the way.
bad=$(grep -rlE --exclude=test-harness.sh '^\s*(exit 0|return 0)|echo "SKIP' "$ROOT/tests/cli" || true)
[ -z "$bad" ] || fail "tests that end early as a pass: $bad"
expect_exit 0
