# atc --compatibility prints the compatibility matrix from the registry and the chip table, and
# docs/compatibility.md is that output (regenerate it with scripts/gen_docs.sh).
run atc --compatibility
expect_exit 0
expect_stdout_contains "# Compatibility matrix"
expect_stdout_contains "| 5 | ONNX (\`.onnx\`, external data) | opsets 1-24 |"
expect_stdout_contains "| Ascend910B1 |"
expect_stdout_contains "| Conv | 1-24 | Conv2D | AI_CORE |"
# One row per operator of atc --list_ops.
ops=$(atc --list_ops | tail -n +2 | wc -l)
rows=$(sed -n '/^## Operators/,$p' "$STDOUT" | grep -c '^| [A-Za-z][A-Za-z0-9]* | [0-9i]')
[ "$ops" -eq "$rows" ] || fail "$rows operator rows, atc --list_ops lists $ops"
diff -u "$ROOT/docs/compatibility.md" "$STDOUT" > diff.txt ||
  fail "docs/compatibility.md is stale; run scripts/gen_docs.sh ($(head -20 diff.txt))"
