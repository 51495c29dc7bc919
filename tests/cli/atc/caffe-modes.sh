# atc --mode=1 --framework=0 renders the prototxt as JSON; --mode=3 pre-checks a Caffe model
# (the report names an unsupported layer type); --input_shape overrides the Input layer's shape.
PY=/usr/bin/python3
$PY "$DATA/caffe_case.py" model lenet . || fail "could not write the model"
run atc --mode=1 --framework=0 --om=lenet.prototxt --json=lenet.json
expect_exit 0
$PY - lenet.json <<'PYCHECK' || fail "the JSON is not the prototxt"
import json, sys
net = json.load(open(sys.argv[1]))
names = [l["name"] for l in net["layer"]]
assert names[:3] == ["data", "conv1", "pool1"], names
assert net["layer"][1]["convolution_param"]["num_output"] == 8
PYCHECK

run atc --mode=3 --framework=0 --model=lenet.prototxt --weight=lenet.caffemodel \
  --check_report=ok.json
expect_exit 0
expect_stdout_contains "9 of 9 ops pass"
sed 's/type: "ReLU"/type: "Swish3"/' lenet.prototxt > unknown.prototxt
run atc --mode=3 --framework=0 --model=unknown.prototxt --check_report=bad.json
expect_exit_nonzero
expect_file bad.json
grep -q '"Swish3"' bad.json || fail "the report does not name the layer type"

# --input_shape: a batch of 4.
run atc --framework=0 --model=lenet.prototxt --weight=lenet.caffemodel --output=b4 \
  --soc_version=Ascend310 --input_shape="data:4,1,28,28"
expect_exit 0
run atc --mode=6 --om=b4.om
expect_exit 0
expect_stdout_contains "4,1,28,28"
