# scripts/batch/convert-layers.sh: a 6-block transformer-like stack exported one block per file is
# converted in parallel (2 jobs), run by msame as a chain (block k's output feeds block k+1) and
# checked against the whole model converted and run in one piece.
command -v parallel >/dev/null || skip "GNU parallel is not installed (scripts/install-deps.sh)"
PY=/usr/bin/python3
proto=/usr/include/onnx/onnx.proto
mkdir -p case/blocks
$PY "$DATA/layers_case.py" case 6 || fail "could not write the blocks"
for t in case/blocks/*.textproto case/whole.textproto; do
  protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < "$t" > "${t%.textproto}.onnx" ||
    fail "protoc could not encode $t"
  rm "$t"
done
run env ATC="$BIN/atc" MSAME="$BIN/msame" "$ROOT/scripts/batch/convert-layers.sh" case/blocks out \
  --input case/x.bin --whole case/whole.onnx -- --precision_mode=force_fp32 -P --jobs 2
expect_exit 0
expect_stdout_contains "6 model(s): 6 converted, 0 failed"
expect_stdout_contains "block block_00: "
expect_stdout_contains "block block_05: "
expect_stdout_contains "chain against the whole model: 512 values: cosine 1.0000000"
expect_stdout_contains "MATCH"
expect_file out/om/block_03.om
# A block that does not take the previous one's output stops the chain, naming it.
cp case/blocks/block_00.onnx case/blocks/block_06.onnx
head -c 100 case/x.bin > short.bin
run env ATC="$BIN/atc" MSAME="$BIN/msame" "$ROOT/scripts/batch/convert-layers.sh" case/blocks out2 \
  --input short.bin -P --jobs 2
expect_exit 1
expect_stdout_contains "block block_00 failed"
run "$ROOT/scripts/batch/convert-layers.sh" case/blocks out3
expect_exit 2
