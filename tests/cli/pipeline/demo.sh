# scripts/demo.sh runs end to end on the bundled real model (the digits CNN): atc, the OM summary,
# msame on 8 digits it never saw, each true label beside the prediction. With a model of one's
# own (here the ResNet-shaped one) it prints the top-5 classes.
run env BUILD_DIR="$(dirname "$BIN")" DEMO_OUT="$TMP/demo" "$ROOT/scripts/demo.sh"
expect_exit 0
expect_stdout_contains "ATC run success, welcome to the next use."
expect_stdout_contains "Display Model Info start"
expect_stdout_contains "Execute sample success"
expect_stdout_contains "classify 8 digits the model never saw in training"
[ "$(grep -c '^  digit_1[0-9]*  true [0-9]  predicted [0-9]' "$STDOUT")" = 8 ] || fail "expected 8 digit lines"
expect_stdout_line "8 of 8 right (on all 297 images it never saw, 1500-1796: 94.6 %; docs/scale-out.md)"
run env BUILD_DIR="$(dirname "$BIN")" DEMO_OUT="$TMP/demo2" "$ROOT/scripts/demo.sh" "$ROOT/models/resnet_mini.onnx"
expect_exit 0
expect_stdout_contains "top-5 classes"
[ "$(grep -c '  class ' "$STDOUT")" = 5 ] || fail "expected 5 class lines"
