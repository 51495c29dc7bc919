# --mode=3 writes the pre-check report (the real JSON keys) and fails when an op cannot be taken;
# a model that passes gives "success". --ops_info writes the per-chip op-support tables.
run atc --mode=3 --model="$DATA/unsupported_op.onnx" --framework=5 --check_report=bad.json
expect_exit 255
expect_stdout_contains "E2002"
expect_file bad.json
grep -q '"result": "failed"' bad.json || fail "report does not say failed"
grep -q '"code": 1' bad.json || fail "no TYPE_UNSUPPORTED cause"
grep -q '"name": "uq_3"' bad.json || fail "the failing node is not named"
run atc --mode=3 --model="$DATA/tiny_conv.onnx" --framework=5
expect_exit 0
expect_file check_result.json
grep -q '"result": "success"' check_result.json || fail "report does not say success"
grep -q '"total": 2' check_result.json || fail "expected 2 ops"
run atc --ops_info=info
expect_exit 0
expect_file info/Ascend910B1/ops_info.json
grep -q '"Conv2D"' info/Ascend310/ops_info.json || fail "Conv2D missing"
grep -q 'bfloat16' info/Ascend310/ops_info.json && fail "Ascend310 has no bf16"
grep -q 'bfloat16' info/Ascend910B1/ops_info.json || fail "Ascend910B1 has bf16"
true
