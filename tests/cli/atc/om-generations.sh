# OMs of both container generations CANN's ATC writes (docs/om-format.md, "Generations"),
# made by tests/testkit/make_cann_om.py independently of our writer: the CANN 8 one (length 0,
# model_length at byte 184, a 64-bit partition table, MODEL_INOUT_INFO) and the older one (a
# 32-bit table, CUST_AICPU_KERNELS). --mode=6 prints the real block with every partition,
# --mode=1 writes the ModelDef with CANN's spellings, and msame says why it cannot run an NPU
# model and what to do, writing nothing. An asc-tools OM still reads with its 32-bit table.
PY=/usr/bin/python3
[ -x "$PY" ] && command -v protoc >/dev/null || skip "needs /usr/bin/python3 and protoc"
$PY "$ROOT/tests/testkit/make_cann_om.py" "$ROOT/libasccore/src/proto" . || fail "could not write the OMs"

run atc --mode=6 --om=cann8.om
expect_exit 0
expect_stdout_line "============ Display Model Info start ============"
expect_stdout_line "system   info: atc_version[7.6.0.1.220], soc_version[Ascend310B4], framework_type[Onnx]."
expect_stdout_line "resource info: memory_size[4096 B], weight_size[4640 B], stream_num[1], event_num[0]."
expect_stdout_line "om       info: modeldef_size[828 B], weight_data_size[4640 B], tbe_kernels_size[1028 B], cust_aicpu_kernel_store_size[0 B], task_info_size[16 B], so_store_size[0 B]."
expect_stdout_line "============ Display Model Info end   ============"
expect_stdout_contains "partition_table[64-bit], partitions[MODEL_DEF:828, WEIGHTS_DATA:4640, TBE_KERNELS:1028, TASK_INFO:16, MODEL_INOUT_INFO:16]"
expect_stdout_contains "checksum[none]"
expect_stdout_not_contains "truncated"

run atc --mode=6 --om=cann5.om
expect_exit 0
expect_stdout_line "om       info: modeldef_size[828 B], weight_data_size[4640 B], tbe_kernels_size[1028 B], cust_aicpu_kernel_store_size[32 B], task_info_size[16 B], so_store_size[0 B]."
expect_stdout_contains "header_version[0x10000000], partition_table[32-bit]"

run atc --mode=1 --om=cann8.om --json=cann8.json
expect_exit 0
expect_file cann8.json
grep -q '"type": "Conv2D"' cann8.json || fail "the JSON lacks the Conv2D op"
grep -q '"key": "data_format"' cann8.json || fail "the JSON lacks Conv2D's data_format"
grep -q '"layout": "FRACTAL_Z"' cann8.json || fail "the JSON lacks the FRACTAL_Z weight"

for m in cann8 cann5; do
  run msame --model $m.om --output out
  expect_exit 1
  expect_stdout_contains "E10041"
  expect_stdout_contains "it holds TBE kernels for Ascend310B4 (1028 bytes of NPU code, atc 7.6.0.1.220)"
  expect_stdout_contains "convert the original model (ONNX, Caffe or TensorFlow) with asc-tools' atc"
  expect_stdout_not_contains "truncated"
  expect_no_file out
done

# Our own files keep the 32-bit table.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=ours --soc_version=Ascend310
run atc --mode=6 --om=ours.om
expect_exit 0
expect_stdout_contains "header_version[0x20000000], partition_table[32-bit], partitions[MODEL_DEF:"
