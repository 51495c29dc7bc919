# scripts/precision-check.sh: atc (force_fp16), msame with dumps on the OM and on the ONNX
# model, mscompare through the OM's fusion map. A healthy fp16 model passes with every layer's
# cosine >= 0.999 and the CSV lists every layer pair; a fault planted in one layer's output
# (FAULT_NODE with MSAME=asc_msame_fault, the test build of msame) is named as the first
# failing layer, exit 1. FAULT_NODE with the released msame is refused (it has no fault hook).
model="$ROOT/models/resnet_mini.onnx"
run env BIN="$BIN" OUT="$TMP/ok" "$ROOT/scripts/precision-check.sh" "$model"
expect_exit 0
expect_stdout_contains "first failing layer   none"
csv=$(ls "$TMP"/ok/result_*.csv)
[ -f "$csv" ] || fail "no result CSV"
# Every compared row: cosine >= 0.999 (rows without golden data, the inserted Cast/TransData,
# have NaN).
low=$(/usr/bin/python3 - "$csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) >= 15, len(rows)
compared = [r for r in rows if r["CosineSimilarity"] != "NaN"]
assert len(compared) >= 14, len(compared)
print(" ".join(r["NPUDump"] for r in compared if float(r["CosineSimilarity"]) < 0.999))
PY
) || fail "CSV check failed"
[ -z "$low" ] || fail "layers below cosine 0.999: $low"

run env BIN="$BIN" OUT="$TMP/fault" MSAME="$BIN/asc_msame_fault" \
  FAULT_NODE="/layers/layers.1/conv2/Conv" "$ROOT/scripts/precision-check.sh" "$model"
expect_exit 1
expect_stdout_contains "first failing layer   _layers_layers_1_conv2_Conv output 0"
expect_stdout_contains "below --min_cosine"

run env BIN="$BIN" OUT="$TMP/nohook" FAULT_NODE="/layers/layers.1/conv2/Conv" \
  "$ROOT/scripts/precision-check.sh" "$model"
expect_exit 2
expect_stderr_contains "FAULT_NODE needs MSAME="

run env BIN="$BIN" OUT="$TMP/none" "$ROOT/scripts/precision-check.sh" "$TMP/no_such.onnx"
expect_exit 2

# ATC_ARGS reach atc: keeping every Conv in fp32 (--keep_dtype) still passes, and a bad extra
# option stops the flow with exit 2 before anything runs.
printf 'OpType::Conv\n' > "$TMP/keep.cfg"
run env BIN="$BIN" OUT="$TMP/keep" ATC_ARGS="--keep_dtype=$TMP/keep.cfg" "$ROOT/scripts/precision-check.sh" "$model"
expect_exit 0
grep -q "keep_dtype" "$TMP/keep/model/resnet_mini.json" || fail "the OM's command line lacks --keep_dtype"
run env BIN="$BIN" OUT="$TMP/badarg" ATC_ARGS="--no_such_option=1" "$ROOT/scripts/precision-check.sh" "$model"
expect_exit 2
