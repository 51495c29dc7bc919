# --op_blacklist: a JSON file of op types and node names that no pass may fuse, fold or remove.
# The kept nodes are logged with --log=info, stay in the OM, and a name the model lacks is
# warned about; a malformed file is E10032 and writes no OM.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=free --soc_version=Ascend310
expect_exit 0
run atc --mode=1 --om=free.om --json=free.json
! grep -q '"type": "Relu"' free.json || fail "Relu was not fused without a blacklist"
printf '{"op_types": ["Relu"], "op_names": ["no_such_node"]}\n' > keep.json
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=kept --soc_version=Ascend310 --op_blacklist=keep.json --log=info
expect_exit 0
expect_stderr_contains "op blacklist: Relu"
expect_stderr_contains "no node named 'no_such_node'"
run atc --mode=1 --om=kept.om --json=kept.json
grep -q '"type": "Relu"' kept.json || fail "a blacklisted Relu was fused"
printf '{"op_type": ["Relu"]}\n' > bad.json
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=bad --soc_version=Ascend310 --op_blacklist=bad.json
expect_exit 255
expect_stdout_contains "E10032"
expect_stdout_contains "bad.json"
expect_no_file bad.om
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=missing --soc_version=Ascend310 --op_blacklist=missing.json
expect_exit 255
expect_stdout_contains "E13001"
expect_no_file missing.om
# The seed's per-op form: {"op_name": ..., "impl_type": ...}, one object or a list. Under
# force_fp16, high_precision keeps the Conv (tiny_conv's only compute op once Relu is fused) in
# fp32, so the OM holds no fp16 tensor; high_performance leaves it in fp16.
printf '{"op_name": "Conv2D", "impl_type": "high_precision"}\n' > one.json
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=hp --soc_version=Ascend310 --op_blacklist=one.json
expect_exit 0
run atc --mode=1 --om=hp.om --json=hp.json
grep -q '"dtype": "DT_FLOAT16"' hp.json && fail "a high_precision Conv computes in fp16"
grep -q '"_asc_impl_mode"' hp.json || fail "the OM does not record the implementation choice"
printf '[{"op_name": "Conv", "impl_type": "high_performance"}, {"op_name": "nothing", "impl_type": "high_precision"}]\n' > list.json
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=perf --soc_version=Ascend310 --op_blacklist=list.json
expect_exit 0
run atc --mode=1 --om=perf.om --json=perf.json
grep -q '"dtype": "DT_FLOAT16"' perf.json || fail "a high_performance Conv left fp16"
# The same through --op_select_implmode and --optypelist_for_implmode.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=sel --soc_version=Ascend310 --op_select_implmode=high_precision --optypelist_for_implmode=Conv2D
expect_exit 0
run atc --mode=1 --om=sel.om --json=sel.json
grep -q '"dtype": "DT_FLOAT16"' sel.json && fail "--op_select_implmode=high_precision left the Conv in fp16"
printf '{"op_name": "Conv2D", "impl_type": "fastest"}\n' > badimpl.json
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=badimpl --soc_version=Ascend310 --op_blacklist=badimpl.json
expect_exit 255
expect_stdout_contains "E10001"
expect_stdout_contains "fastest"
expect_stdout_contains "high_precision or high_performance"
expect_no_file badimpl.om
printf '[{"op_name": "Conv2D", "impl": "high_precision"}]\n' > badkey.json
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=badkey --soc_version=Ascend310 --op_blacklist=badkey.json
expect_exit 255
expect_stdout_contains "E10032"
expect_no_file badkey.om
