# --oo_level (the current atc: O1, O3) and --optimize (the seed: O1, O2, O3) choose the pass set.
# O1 folds and eliminates only, so the Conv's Relu stays a node; O2 fuses it; O3 adds the layout
# (TransData) passes. --mode=6 shows the level; a bad or contradictory level is E10001.
model="$DATA/tiny_conv.onnx"
common=(--framework=5 --soc_version=Ascend310P3 --precision_mode=force_fp32)
run atc --model="$model" "${common[@]}" --output=o1 --oo_level=O1
expect_exit 0
run atc --model="$model" "${common[@]}" --output=o2 --optimize=O2
expect_exit 0
run atc --model="$model" "${common[@]}" --output=o3
expect_exit 0
for l in 1 2 3; do
  run atc --mode=1 --om=o$l.om --json=o$l.json
  expect_exit 0
done
grep -q '"type": "Relu"' o1.json || fail "O1 fused the Relu"
! grep -q '"type": "Relu"' o2.json || fail "O2 did not fuse the Relu"
! grep -q '"type": "TransData"' o2.json || fail "O2 assigned layouts"
grep -q '"type": "TransData"' o3.json || fail "O3 has no TransData"
run atc --mode=6 --om=o1.om
expect_stdout_contains "compile  info: oo_level[O1]."
run atc --mode=6 --om=o3.om
expect_stdout_contains "compile  info: oo_level[O3]."
# The same inputs give the same outputs at every level.
for l in 1 2 3; do
  run msame --model o$l.om --output out$l --random_input 3
  expect_exit 0
done
floats() { od -An -v -f "$1" | tr -s ' ' '\n' | grep -v '^$'; }
for l in 2 3; do
  paste <(floats out1/*/o1_output_0.bin) <(floats out$l/*/o${l}_output_0.bin) |
    awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d; n++ }
         END { exit !(n == 256 && m <= 1e-5) }' || fail "O1 and O$l outputs differ"
done
run atc --model="$model" "${common[@]}" --output=bad --oo_level=O4
expect_exit 255
expect_stdout_contains "E10001"
expect_stdout_contains "--oo_level"
expect_no_file bad.om
run atc --model="$model" "${common[@]}" --output=bad --oo_level=O1 --optimize=O3
expect_exit 255
expect_stdout_contains "E10001"
expect_no_file bad.om
