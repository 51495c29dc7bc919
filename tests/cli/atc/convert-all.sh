# scripts/batch/convert-all.sh: a folder of models converted by atc under GNU parallel at 2 jobs;
# results.csv has each model's status, error code, time, arena and weights; a rerun converts only
# what is not done.
command -v parallel >/dev/null || skip "GNU parallel is not installed (scripts/install-deps.sh)"
mkdir zoo
cp "$DATA/tiny_conv.onnx" "$DATA/two_inputs.onnx" "$ROOT/models/resnet_mini.onnx" zoo/
cp "$DATA/not_a_model.onnx" zoo/broken.onnx
run env ATC="$BIN/atc" "$ROOT/scripts/batch/convert-all.sh" zoo oms -P --jobs 2
expect_exit 1
expect_stdout_contains "convert-all.sh: 4 model(s): 3 converted, 1 failed"
expect_file oms/tiny_conv.om
expect_file oms/resnet_mini.om
expect_no_file oms/broken.om
expect_file oms/joblog.txt
head -1 oms/results.csv | grep -qx 'model,status,error_code,seconds,arena_bytes,weight_bytes' ||
  fail "results.csv header: $(head -1 oms/results.csv)"
grep -Eq '^tiny_conv,ok,,[0-9.]+,[0-9]+,[0-9]+$' oms/results.csv || fail "tiny_conv's row: $(grep tiny_conv oms/results.csv)"
grep -Eq '^broken,failed,E[0-9]+,' oms/results.csv || fail "broken's row: $(grep broken oms/results.csv)"
expect_file oms/logs/broken.log
# Rerun: the converted models are skipped, the broken one is tried again.
run env ATC="$BIN/atc" "$ROOT/scripts/batch/convert-all.sh" zoo oms -P --jobs 2
expect_exit 1
expect_stdout_contains "skipped tiny_conv (converted)"
expect_stdout_contains "skipped resnet_mini (converted)"
expect_stdout_contains "failed broken"
rm zoo/broken.onnx
run env ATC="$BIN/atc" "$ROOT/scripts/batch/convert-all.sh" zoo oms -P --jobs 2
expect_exit 0
expect_stdout_contains "convert-all.sh: 3 model(s): 3 converted, 0 failed"
