# --mode=1 renders the ModelDef: every op with its input and output shapes, enums by name.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
run atc --mode=1 --om=m.om --json=m.json
expect_exit 0
expect_file m.json
grep -q '"type": "Conv2D"' m.json || fail "no Conv2D op in the JSON"
# The Relu is fused into the convolution; the fusion map names both source nodes.
grep -q '"type": "Relu"' m.json && fail "Relu was not fused"
grep -q '"s": "Relu"' m.json || fail "no fused activation attribute"
grep -A8 '"_datadump_original_op_names"' m.json | grep -q '"relu1"' || fail "fusion map lacks relu1"
grep -q '"dtype": "DT_FLOAT"' m.json || fail "dtype not rendered by name"
grep -q '"_datadump_original_op_names"' m.json || fail "no fusion map attribute"
run atc --mode=1 --om=m.om
expect_exit 255
expect_stdout_contains "E10004"
# Feature maps are recorded in NC1HWC0 (5-D, C0 = 16) with TransData at the edges.
grep -q '"type": "TransData"' m.json || fail "no TransData op"
grep -q '"layout": "NC1HWC0"' m.json || fail "no NC1HWC0 tensor"
grep -q '"origin_shape"' m.json || fail "no origin_shape on the 5-D tensors"
