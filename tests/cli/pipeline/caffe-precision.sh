# The precision workflow from a Caffe model: msame --dump on the OM of the AlexNet-like net, then
# mscompare against golden .npy files named after the Caffe layers (tests/data/caffe_case.py's
# numpy forward pass), through the OM's --mode=1 JSON. Every fused op maps to its group's last
# Caffe layer (conv1+bn1+scale1+relu1 -> relu1), every compared layer is within fp32 tolerance;
# a golden file with a planted error is named as the first failing layer.
PY=/usr/bin/python3
$PY "$DATA/caffe_case.py" model alexnet . || fail "could not write the model"
run atc --framework=0 --model=alexnet.prototxt --weight=alexnet.caffemodel --output=alexnet \
  --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
run atc --mode=1 --om=alexnet.om --json=alexnet.json
expect_exit 0
run msame --model alexnet.om --input alexnet.input.npy --output run --dump true
expect_exit 0
dump=$(dirname "$(find run/dump -type f | head -1)")
[ -d "$dump" ] || fail "no dump folder"
run mscompare -m "$dump" -g golden -f alexnet.json -out cmp
expect_exit 0
expect_stdout_contains "first failing layer   none"
$PY - cmp/result_*.csv <<'PYCHECK' || fail "the CSV does not cover the Caffe layers"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["CosineSimilarity"] != "NaN"]
truth = ",".join(r["GroundTruth"] for r in rows)
for layer in ("conv1", "bn1", "scale1", "relu1", "norm1", "pool1", "sum3", "pool2", "prod4",
              "max4", "concat4", "pool3", "fc6", "fc7", "prob"):
    assert layer in truth.split(","), layer
assert len(rows) >= 14, len(rows)
assert all(float(r["CosineSimilarity"]) > 0.99999 for r in rows)
PYCHECK
# A planted error in pool2's golden: named first.
$PY -c "import numpy as np; a = np.load('golden/pool2.npy'); a[0, 0] *= -1; np.save('golden/pool2.npy', a)"
run mscompare -m "$dump" -g golden -f alexnet.json -out cmp_bad
expect_exit 1
expect_stdout_contains "first failing layer   pool2"
