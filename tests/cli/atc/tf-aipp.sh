# AIPP on a TensorFlow model: the NHWC input [1, 32, 32, 3] takes a raw RGB888 image; AIPP gives
# NCHW, and a Transpose hands the model its NHWC tensor. msame on the raw image matches the plain
# model run on the image normalised in numpy (cosine >= 0.99999).
PY=/usr/bin/python3
case_py="$DATA/tf_case.py"
proto="$ROOT/libasccore/src/proto/tf_graph.proto"
$PY "$case_py" mobilenet . || fail "could not write the model"
protoc --encode=tensorflow.GraphDef -I"$(dirname "$proto")" "$proto" <model.pbtxt >model.pb ||
  fail "protoc could not encode the model"
cat >aipp.cfg <<'CFG'
aipp_op {
  aipp_mode: static
  input_format: RGB888_U8
  src_image_size_w: 32
  src_image_size_h: 32
  mean_chn_0: 120
  mean_chn_1: 110
  mean_chn_2: 100
  var_reci_chn_0: 0.02
  var_reci_chn_1: 0.015
  var_reci_chn_2: 0.01
}
CFG
$PY - <<'PYPREP' || fail "could not make the image"
import numpy as np
img = np.random.default_rng(5).integers(0, 256, (1, 32, 32, 3), dtype=np.uint8)
img.tofile("image.bin")
x = (img.astype(np.float32) - np.array([120, 110, 100], np.float32)) * np.array(
    [0.02, 0.015, 0.01], np.float32)
np.save("x_norm.npy", x.astype(np.float32))
PYPREP
common=(--model=model.pb --framework=3 --soc_version=Ascend310 --precision_mode=force_fp32)
run atc "${common[@]}" --output=plain
expect_exit 0
run atc "${common[@]}" --output=aipp --insert_op_conf=aipp.cfg
expect_exit 0
run atc --mode=6 --om=aipp.om
expect_stdout_contains "inputs[input:uint8:[1,32,32,3]]"
run msame --model plain.om --input x_norm.npy --output run_plain
expect_exit 0
run msame --model aipp.om --input image.bin --output run_aipp
expect_exit 0
$PY -c "import numpy as np, glob; np.save('ref.npy', np.fromfile(glob.glob('run_plain/*/plain_output_0.bin')[0], np.float32))"
$PY "$case_py" check run_aipp/*/aipp_output_0.bin ref.npy || fail "AIPP output differs"
