# An op with no mapping: E2002 naming the op type and the node; no .om.
run atc --model="$DATA/unsupported_op.onnx" --framework=5 --output=out/uq --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "ATC run failed"
expect_stdout_contains "E2002"
expect_stdout_contains "Loop"
expect_stdout_contains "uq_3"
expect_no_file out/uq.om
