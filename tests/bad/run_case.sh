#!/usr/bin/env bash
# run_case.sh NAME BIN INPUTS TMP: runs one case of tests/bad/cases.tsv in an empty folder TMP
# with the tools of BIN first on PATH and $IN=INPUTS (made by make_inputs.sh). Passes when the
# command exits with exactly the listed status, prints the listed error code and message
# fragment (stdout or stderr), and leaves no file behind (a failed command writes no output,
# partial or temporary). A crash or hang shows as another exit status (timeout: 124).
set -u
name=$1
BIN=$2
IN=$3
TMP=$4
HERE=$(cd "$(dirname "$0")" && pwd)
line=$(awk -F'\t' -v n="$name" '$1 == n' "$HERE/cases.tsv")
[ -n "$line" ] || { echo "FAIL: no case '$name' in cases.tsv"; exit 1; }
IFS=$'\t' read -r _ want_exit code fragment command <<<"$line"
export PATH="$BIN:$PATH" IN
rm -rf "$TMP" && mkdir -p "$TMP/run"
cd "$TMP/run"
timeout 60 bash -c "$command" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null
status=$?
problems=()
[ "$status" -eq "$want_exit" ] || problems+=("exit status $status, expected $want_exit")
cat "$TMP/stdout" "$TMP/stderr" >"$TMP/all"
grep -qF -- "$code" "$TMP/all" || problems+=("output lacks the code '$code'")
grep -qF -- "$fragment" "$TMP/all" || problems+=("output lacks '$fragment'")
left=$(find "$TMP/run" -type f | head -5)
[ -z "$left" ] || problems+=("files left behind: $left")
if [ ${#problems[@]} -gt 0 ]; then
  echo "FAIL bad: $name: ${problems[*]}"
  echo "--- command: $command"
  echo "--- stdout:"; cat "$TMP/stdout"
  echo "--- stderr:"; cat "$TMP/stderr"
  exit 1
fi
echo "PASS bad: $name ($code)"
