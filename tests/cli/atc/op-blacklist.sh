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
