# The counts the README states (bad cases, operators, conformance) are those of their sources
# (scripts/gen_counts.py); scripts/gen_docs.sh rewrites them after a change.
run python3 "$ROOT/scripts/gen_counts.py" "$BIN/atc" --check
expect_exit 0
expect_stdout_contains "README.md: 6 counts match their sources"
