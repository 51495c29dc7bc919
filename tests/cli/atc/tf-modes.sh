# atc --mode=1 --framework=3 renders a frozen GraphDef as JSON (protobuf's JSON mapping, with
# TensorFlow's field names); --mode=3 pre-checks it: success for a model it can take,
# TYPE_UNSUPPORTED (cause 1) naming the node for an unknown op, PARAM_INVALID (cause 2) for a bad
# attribute.
PY=/usr/bin/python3
proto="$ROOT/libasccore/src/proto/tf_graph.proto"
encode() { protoc --encode=tensorflow.GraphDef -I"$(dirname "$proto")" "$proto"; }
$PY "$DATA/tf_case.py" mobilenet . || fail "could not write the model"
encode <model.pbtxt >model.pb || fail "protoc could not encode the model"
run atc --mode=1 --framework=3 --om=model.pb --json=model.json
expect_exit 0
expect_file model.json
$PY - model.json <<'PYCHECK' || fail "the JSON is not the GraphDef"
import json, sys
g = json.load(open(sys.argv[1]))
ops = {n["name"]: n["op"] for n in g["node"]}
assert ops["dw1/depthwise"] == "DepthwiseConv2dNative", ops
assert ops["predictions"] == "Softmax"
conv = next(n for n in g["node"] if n["name"] == "conv0/Conv2D")
assert conv["attr"]["padding"]["s"] == "U0FNRQ==", conv["attr"]["padding"]  # "SAME" as bytes
assert conv["attr"]["strides"]["list"]["i"] == ["1", "2", "2", "1"]
PYCHECK
run atc --mode=1 --framework=3 --om="$DATA/tiny_conv.onnx" --json=bad.json
expect_exit 255
expect_stdout_contains "E13005"
expect_no_file bad.json

run atc --mode=3 --model=model.pb --framework=3 --check_report=ok.json
expect_exit 0
grep -q '"result": "success"' ok.json || fail "the report does not say success"
cat >unknown.pbtxt <<'PB'
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: 1 } dim { size: 4 } } } } }
node { name: "y" op: "Relu" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "z" op: "Erfinv" input: "y" attr { key: "T" value { type: DT_FLOAT } } }
PB
encode <unknown.pbtxt >unknown.pb || fail "protoc could not encode the model"
run atc --mode=3 --model=unknown.pb --framework=3 --check_report=bad.json
expect_exit 255
expect_stdout_contains "E2002"
grep -q '"result": "failed"' bad.json || fail "the report does not say failed"
grep -q '"code": 1' bad.json || fail "no TYPE_UNSUPPORTED cause"
grep -q '"name": "z"' bad.json || fail "the failing node is not named"
grep -q '"total": 3' bad.json || fail "expected 3 ops"

# An attribute the op cannot take: PARAM_INVALID (cause 2) naming the node.
cat >param.pbtxt <<'PB'
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: 1 } dim { size: 4 } dim { size: 4 }
                                           dim { size: 2 } } } } }
node { name: "w" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 1 }
              dim { size: 1 } dim { size: 2 } dim { size: 3 } } float_val: 1.0 } } } }
node { name: "conv" op: "Conv2D" input: "x" input: "w" attr { key: "padding" value { s: "WEIRD" } } }
PB
encode <param.pbtxt >param.pb || fail "protoc could not encode the model"
run atc --mode=3 --model=param.pb --framework=3 --check_report=param.json
expect_exit 255
expect_stdout_contains "E16001"
grep -q '"code": 2' param.json || fail "no PARAM_INVALID cause"
grep -q "padding 'WEIRD'" param.json || fail "the cause does not name the attribute"
