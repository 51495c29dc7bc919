# Caffe nets from issue 31: LRN WITHIN_CHANNEL converts (Caffe's construction: window mean of
# the squares with zero padding counted, then x * (1 + alpha * mean)^-beta), MVN converts (Caffe's formula, eps on the standard deviation; per map,
# and across channels without variance), a net whose last layer is a Split keeps the Split's
# bottom as a net output (Caffe makes every top nobody reads an output), and SSD's
# DetectionOutput with its full detection_output_param (save_output_param included) parses, and
# with one bottom is refused naming the layer (E16001; tests/cli/atc/caffe-ssd.sh runs a real one),
# not with a parse error. Checked against numpy.
PY=/usr/bin/python3
[ -x "$PY" ] || skip "needs /usr/bin/python3"
$PY -c "import numpy" 2>/dev/null || skip "needs python3-numpy"
cat > mvn.prototxt <<'TXT'
name: "mvn"
layer { name: "data" type: "Input" top: "data" input_param { shape { dim: 1 dim: 2 dim: 3 dim: 4 } } }
layer { name: "mvn1" type: "MVN" bottom: "data" top: "a" mvn_param { eps: 0.01 } }
layer { name: "mvn2" type: "MVN" bottom: "data" top: "b"
        mvn_param { normalize_variance: false across_channels: true } }
layer { name: "fork" type: "Split" bottom: "b" top: "b1" top: "b2" }
TXT
: > empty.caffemodel
run atc --model=mvn.prototxt --weight=empty.caffemodel --framework=0 --output=mvn \
  --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
expect_file mvn.om
cat > check.py <<'PY'
import glob, sys
import numpy as np
x = (np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4) * 0.37) % 2.1 - 1.0
x.tofile("x.bin")
if len(sys.argv) > 1:
    outs = sorted(glob.glob("out/*/mvn_output_*.bin"))
    assert len(outs) == 2, outs
    a = np.fromfile(outs[0], np.float32).reshape(1, 2, 3, 4)
    b = np.fromfile(outs[1], np.float32).reshape(1, 2, 3, 4)
    xd = x.astype(np.float64)
    mu = xd.mean(axis=(2, 3), keepdims=True)
    sd = np.sqrt(((xd - mu) ** 2).mean(axis=(2, 3), keepdims=True))
    want_a = (xd - mu) / (sd + 0.01)
    want_b = xd - xd.mean(axis=(1, 2, 3), keepdims=True)
    assert np.allclose(a, want_a, rtol=1e-5, atol=1e-5), np.abs(a - want_a).max()
    assert np.allclose(b, want_b, rtol=1e-5, atol=1e-5), np.abs(b - want_b).max()
    print("match")
PY
run $PY check.py
expect_exit 0
run msame --model mvn.om --input x.bin --output out
expect_exit 0
run $PY check.py compare
expect_exit 0
expect_stdout_line "match"

cat > ssd_tail.prototxt <<'TXT'
name: "ssd_tail"
layer { name: "data" type: "Input" top: "data" input_param { shape { dim: 1 dim: 8 } } }
layer { name: "detection_out" type: "DetectionOutput" bottom: "data" top: "detection_out"
  detection_output_param {
    num_classes: 21 share_location: true background_label_id: 0
    nms_param { nms_threshold: 0.45 top_k: 400 }
    save_output_param { output_directory: "out" output_format: "VOC"
      resize_param { prob: 1 resize_mode: WARP height: 300 width: 300 interp_mode: LINEAR } }
    code_type: CENTER_SIZE keep_top_k: 200 confidence_threshold: 0.01 } }
TXT
run atc --model=ssd_tail.prototxt --weight=empty.caffemodel --framework=0 --output=ssd \
  --soc_version=Ascend310
expect_exit_nonzero
expect_stdout_contains "E16001"
expect_stdout_contains "Caffe layer 'detection_out' (DetectionOutput): takes 3 bottoms"
expect_stdout_not_contains "E13018"
expect_no_file ssd.om

cat > lrn.prototxt <<'TXT'
name: "lrn"
layer { name: "data" type: "Input" top: "data" input_param { shape { dim: 1 dim: 2 dim: 3 dim: 4 } } }
layer { name: "lrn" type: "LRN" bottom: "data" top: "y"
        lrn_param { local_size: 3 alpha: 0.5 beta: 0.75 norm_region: WITHIN_CHANNEL } }
TXT
run atc --model=lrn.prototxt --weight=empty.caffemodel --framework=0 --output=lrn \
  --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
run msame --model lrn.om --input x.bin --output lrn_out
expect_exit 0
cat > lrn_check.py <<'PY'
import glob
import numpy as np
x = np.fromfile("x.bin", np.float32).reshape(1, 2, 3, 4).astype(np.float64)
p = np.pad(x * x, ((0, 0), (0, 0), (1, 1), (1, 1)))
mean = np.zeros_like(x)
for i in range(3):
    for j in range(4):
        mean[:, :, i, j] = p[:, :, i:i + 3, j:j + 3].sum(axis=(2, 3)) / 9
want = x * (1 + 0.5 * mean) ** -0.75
got = np.fromfile(glob.glob("lrn_out/*/lrn_output_0.bin")[0], np.float32).reshape(1, 2, 3, 4)
assert np.allclose(got, want, rtol=1e-5, atol=1e-5), np.abs(got - want).max()
print("match")
PY
run $PY lrn_check.py
expect_exit 0
expect_stdout_line "match"
