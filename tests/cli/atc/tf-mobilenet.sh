# TensorFlow (--framework=3): a MobileNet-like block as a frozen GraphDef in NHWC (Conv2D,
# FusedBatchNormV3, Relu6, DepthwiseConv2dNative, residual AddV2, BiasAdd, AvgPool, Mean, Reshape,
# MatMul, Softmax; written as text by tests/data/tf_case.py and encoded with protoc). The OM keeps
# the NHWC input, msame's output matches the numpy reference (cosine >= 0.99999, max|diff| <=
# 1e-4 max|ref|), and --out_nodes picks inner nodes by TensorFlow name, in NHWC.
PY=/usr/bin/python3
case_py="$DATA/tf_case.py"
proto="$ROOT/libasccore/src/proto/tf_graph.proto"
$PY "$case_py" mobilenet . || fail "could not write the model"
protoc --encode=tensorflow.GraphDef -I"$(dirname "$proto")" "$proto" <model.pbtxt >model.pb ||
  fail "protoc could not encode the model"
common=(--model=model.pb --framework=3 --soc_version=Ascend310 --precision_mode=force_fp32)
run atc "${common[@]}" --output=m
expect_exit 0
expect_stdout_contains "ATC run success"
expect_file m.om
run atc --mode=6 --om=m.om
expect_exit 0
expect_stdout_contains "framework_type[TensorFlow]"
expect_stdout_contains "inputs[input:float32:[1,32,32,3]]"
expect_stdout_contains "outputs[predictions:0:float32:[1,10]]"
run msame --model m.om --input x.npy --output run
expect_exit 0
$PY "$case_py" check run/*/m_output_0.bin ref0.npy || fail "the output differs from the reference"

# Inner nodes, in TensorFlow's NHWC layout.
run atc "${common[@]}" --output=inner --out_nodes="dw1/mul:0;pool/Mean:0"
expect_exit 0
run atc --mode=6 --om=inner.om
expect_stdout_contains "float32:[1,16,16,16]"
expect_stdout_contains "float32:[1,1,1,64]"
run msame --model inner.om --input x.npy --output run_inner
expect_exit 0
$PY "$case_py" check run_inner/*/inner_output_0.bin ref_dw1_mul.npy || fail "dw1/mul differs"
$PY "$case_py" check run_inner/*/inner_output_1.bin ref_pool.npy || fail "pool/Mean differs"
run atc "${common[@]}" --output=bad --out_nodes="no_such_node:0"
expect_exit 255
expect_stdout_contains "no_such_node"
expect_no_file bad.om
