# scripts/demo.sh runs end to end on the bundled model: atc, the OM summary, msame, top-5.
run env BUILD_DIR="$(dirname "$BIN")" DEMO_OUT="$TMP/demo" "$ROOT/scripts/demo.sh"
expect_exit 0
expect_stdout_contains "ATC run success, welcome to the next use."
expect_stdout_contains "Display Model Info start"
expect_stdout_contains "Execute sample success"
expect_stdout_contains "top-5 classes"
[ "$(grep -c '  class ' "$STDOUT")" = 5 ] || fail "expected 5 class lines"
