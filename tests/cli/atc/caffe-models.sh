# Caffe (--framework=0): a LeNet, an AlexNet-like net (BatchNorm+Scale, LRN, grouped and dilated
# convolutions, Eltwise SUM with coeffs / PROD / MAX, Concat, Caffe's ceil-rounded MAX and AVE
# pooling with and without padding, Dropout) and a V1-format net (`layers` with enum types,
# input/input_dim, Slice, Power, Sigmoid, TanH, Flatten) and a net of the remaining layers
# (Normalize, PReLU, ELU, AbsVal, Exp, Log, Deconvolution, Crop, two-bottom Scale, Bias, Permute,
# Reshape with 0/-1, InnerProduct on axis 2 transposed, Softmax on axis 2, Flatten with end_axis,
# ArgMax as a second output) convert, run under msame, and match a
# numpy forward pass written from Caffe's formulas (tests/data/caffe_case.py): cosine >= 0.99999
# and max |diff| <= 1e-4 * max |ref|.
PY=/usr/bin/python3
for net in lenet alexnet v1net misc; do
  $PY "$DATA/caffe_case.py" model $net . || fail "could not write the $net model"
  run atc --framework=0 --model=$net.prototxt --weight=$net.caffemodel --output=$net \
    --soc_version=Ascend310 --precision_mode=force_fp32
  expect_exit 0
  expect_stdout_contains "ATC run success"
  expect_file $net.om
  run msame --model $net.om --input $net.input.npy --output out_$net
  expect_exit 0
  run $PY "$DATA/caffe_case.py" compare out_$net/*/${net}_output_0.bin $net.ref.npy
  expect_exit 0
done
run $PY "$DATA/caffe_case.py" compare out_misc/*/misc_output_1.bin misc.ref1.npy
expect_exit 0
# The BatchNorm+Scale pairs are one BatchNormalization, folded into the convolution by the
# optimiser; the fused op keeps every Caffe layer name it stands for.
run atc --mode=1 --om=alexnet.om --json=alexnet.json
expect_exit 0
$PY - alexnet.json <<'PYCHECK' || fail "the OM's fusion names are not as expected"
import json, sys
text = open(sys.argv[1]).read()
for name in ("conv1", "bn1", "scale1", "bn2", "scale2"):
    assert '"%s"' % name in text, name
assert '"BatchNorm"' not in text
PYCHECK
# The default precision (fp16 on the NPU) converts too.
run atc --framework=0 --model=alexnet.prototxt --weight=alexnet.caffemodel --output=alex16 \
  --soc_version=Ascend310
expect_exit 0
