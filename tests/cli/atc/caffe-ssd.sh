# SSD's DetectionOutput (issue 31): a Caffe-SSD head (PriorBox on a 3x3 map, conf through
# Reshape, Softmax and Flatten, DetectionOutput with CENTER_SIZE decoding, per-class NMS,
# top_k and keep_top_k) converts and runs; its rows match numpy formulas of Caffe-SSD's
# PriorBox and DetectionOutput (tests/testkit/formulas.py). The output has keep_top_k rows,
# unused ones -1; with a threshold nothing passes, every row is -1. keep_top_k -1 is refused.
PY=/usr/bin/python3
$PY -c "import numpy" 2>/dev/null || skip "needs python3-numpy"
net() {  # net NAME CONFIDENCE KEEP_TOP_K
  cat > $1.prototxt <<TXT
name: "ssd_head"
layer { name: "data" type: "Input" top: "feat" top: "loc" top: "conf_logits"
        input_param { shape { dim: 1 dim: 4 dim: 3 dim: 3 } shape { dim: 1 dim: 144 } shape { dim: 1 dim: 108 } } }
layer { name: "prior" type: "PriorBox" bottom: "feat" top: "prior"
        prior_box_param { min_size: 10 max_size: 20 aspect_ratio: 2 flip: true clip: false
                          variance: 0.1 variance: 0.1 variance: 0.2 variance: 0.2 img_size: 30 offset: 0.5 } }
layer { name: "conf_reshape" type: "Reshape" bottom: "conf_logits" top: "conf_r" reshape_param { shape { dim: 0 dim: -1 dim: 3 } } }
layer { name: "conf_softmax" type: "Softmax" bottom: "conf_r" top: "conf_s" softmax_param { axis: 2 } }
layer { name: "conf_flatten" type: "Flatten" bottom: "conf_s" top: "conf" }
layer { name: "detection_out" type: "DetectionOutput" bottom: "loc" bottom: "conf" bottom: "prior" top: "detection_out"
        detection_output_param { num_classes: 3 share_location: true background_label_id: 0
          nms_param { nms_threshold: 0.45 top_k: 20 } code_type: CENTER_SIZE keep_top_k: $3 confidence_threshold: $2 } }
TXT
}
: > empty.caffemodel
$PY -c "
import numpy as np
rng = np.random.default_rng(31)
np.save('feat.npy', np.zeros((1, 4, 3, 3), np.float32))
np.save('loc.npy', (rng.standard_normal((1, 144)) * 0.5).astype(np.float32))
np.save('conf.npy', (rng.standard_normal((1, 108)) * 2).astype(np.float32))
" || fail "inputs"
for case in "ssd 0.2" "none 0.99"; do
  set -- $case
  net $1 $2 10
  run atc --model=$1.prototxt --weight=empty.caffemodel --framework=0 --output=$1 \
    --soc_version=Ascend310 --precision_mode=force_fp32
  expect_exit 0
  run msame --model $1.om --input feat.npy,loc.npy,conf.npy --output out_$1 --outfmt BIN
  expect_exit 0
  run $PY -c "
import glob, sys
import numpy as np
sys.path.insert(0, '$ROOT/tests/testkit')
import formulas
loc = np.load('loc.npy').astype(np.float64)
logits = np.load('conf.npy').astype(np.float64).reshape(36, 3)
conf = np.exp(logits - logits.max(1, keepdims=True))
conf /= conf.sum(1, keepdims=True)
prior = formulas.prior_boxes(3, 3, 10, 20, [2, 0.5], 30, 0.5, [0.1, 0.1, 0.2, 0.2])
want = formulas.detection_output(loc, conf, prior, 3, 0, 0.45, 20, 10, $2)
got = np.fromfile(glob.glob('out_$1/*/$1_output_0.bin')[0], np.float32).reshape(want.shape)
rows = int((want[0, 0, :, 0] >= 0).sum())
print('rows', rows)
print('close' if np.allclose(got, want, rtol=1e-5, atol=1e-5) else 'differs %g' % np.abs(got - want).max())
"
  expect_stdout_line "close"
  [ $1 = none ] && expect_stdout_line "rows 0"
  [ $1 = ssd ] && { grep -q "rows [1-9]" "$STDOUT" || fail "no detections in the ssd case"; }
done
net keepall 0.2 -1
run atc --model=keepall.prototxt --weight=empty.caffemodel --framework=0 --output=keepall --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E10055"
expect_stdout_contains "keep_top_k -1"
expect_no_file keepall.om
