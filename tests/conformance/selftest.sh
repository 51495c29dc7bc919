#!/usr/bin/env bash
# selftest.sh: the conformance runner can fail. Built from real node tests with their expected
# outputs swapped, it checks that run.sh reports a value mismatch, a dtype mismatch and an
# unsupported operator, that an expected test which does not pass fails the run (exit 1), that
# a passing test outside the list is only reported, and that missing test data is an error
# (exit 2), never a skip.
# usage: selftest.sh BIN_DIR WORK_DIR [DATA_DIR]
set -euo pipefail
bin=$1 work=$2 data=${3:-/usr/share/libonnx-testdata/data/node}
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "selftest: FAILED: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
out=$work/out.txt

# Missing data: exit 2 and say what to install.
rc=0
bash "$here/run.sh" --bin "$bin" --work "$work/none" --data "$work/no-such-dir" >"$out" 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "missing data gave exit $rc, not 2"
grep -q "apt-get install libonnx-testdata" "$out" || fail "missing data: no install hint"

[ -f "$data/test_add/model.onnx" ] || fail "no ONNX node tests in $data (install libonnx-testdata)"
# test_add and test_sub share their inputs: test_add's model with test_sub's outputs must be a
# value mismatch; with test_equal's (bool) a dtype mismatch.
fx=$work/data
mkdir -p "$fx"
cp -r "$data/test_add" "$fx/"
# An operator no one has (test_add's node renamed "Xdd"): counted as unsupported, not passed.
cp -r "$data/test_add" "$fx/test_unknown_op"
perl -pi -e 's/\x22\x03Add/\x22\x03Xdd/' "$fx/test_unknown_op/model.onnx"
cp -r "$data/test_add" "$fx/test_add_wrong_values"
cp "$data/test_sub/test_data_set_0/output_0.pb" "$fx/test_add_wrong_values/test_data_set_0/"
cp -r "$data/test_add" "$fx/test_add_wrong_dtype"
cp "$data/test_equal/test_data_set_0/output_0.pb" "$fx/test_add_wrong_dtype/test_data_set_0/"

run() {  # run EXPECTED_FILE: runs the fixture, sets rc
  rc=0
  bash "$here/run.sh" --bin "$bin" --work "$work/run" --data "$fx" --jobs 2 --expected "$1" \
    >"$out" 2>&1 || rc=$?
}
status() { awk -F'\t' -v t="$1" '$1 == t { print $4 "/" $5 }' "$work/run/results.tsv"; }

printf '# comment\ntest_add\ntest_add_wrong_values\ntest_add_wrong_dtype\n' >"$work/expected"
run "$work/expected"
[ $rc -eq 1 ] || { cat "$out"; fail "expected tests that do not pass gave exit $rc, not 1"; }
[ "$(status test_add)" = "pass/" ] || fail "test_add: $(status test_add)"
[ "$(status test_add_wrong_values)" = "fail/mismatch" ] ||
  fail "test_add_wrong_values: $(status test_add_wrong_values)"
[ "$(status test_add_wrong_dtype)" = "fail/output-type" ] ||
  fail "test_add_wrong_dtype: $(status test_add_wrong_dtype)"
[ "$(status test_unknown_op)" = "unsupported/unsupported-op" ] ||
  fail "test_unknown_op: $(status test_unknown_op)"
grep -q "test_add_wrong_values: fail .*outside atol 1e-07 + rtol 0.001" "$out" ||
  { cat "$out"; fail "the mismatch is not reported with its tolerance"; }
grep -q "conformance: 1 / 4 tensor-only tests pass (1 unsupported)" "$out" ||
  { cat "$out"; fail "wrong headline"; }

# A list naming only passing tests: exit 0. An empty list: exit 0, test_add reported as new.
printf 'test_add\n' >"$work/expected"
run "$work/expected"
[ $rc -eq 0 ] || { cat "$out"; fail "a list of passing tests gave exit $rc"; }
: >"$work/expected"
run "$work/expected"
[ $rc -eq 0 ] || { cat "$out"; fail "an empty list gave exit $rc"; }
grep -q "^  test_add$" "$out" || { cat "$out"; fail "a newly passing test is not reported"; }
# A listed test that does not exist is a failure (a renamed test must not vanish silently).
printf 'test_add\ntest_no_such_test\n' >"$work/expected"
run "$work/expected"
[ $rc -eq 1 ] || { cat "$out"; fail "a listed test that does not exist gave exit $rc"; }
echo "selftest: ok"
