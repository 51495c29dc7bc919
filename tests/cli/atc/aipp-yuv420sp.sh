# Static AIPP from a YUV420SP (NV12) image: atc --insert_op_conf puts an Aipp op (CSC YUV->RGB
# with CANN's JPEG matrix, then mean/min/var normalisation) in front of the model input, which
# becomes the raw uint8 image [1, 336, 224, 1] (a 224x224 NV12 image). msame on the raw image
# must give what the plain fp32 model gives on the numpy-converted, normalised tensor (cosine >= 0.9999). The op shows
# in --mode=1 JSON, in the layer dumps and in msprof's op statistics.
PY=/usr/bin/python3
case_py="$DATA/aipp_case.py"
proto=/usr/include/onnx/onnx.proto
$PY "$case_py" model m.textproto 224 || fail "could not write the model"
protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < m.textproto > m.onnx ||
  fail "protoc could not encode the model"
$PY "$case_py" yuv420sp . 224 || fail "could not make the image"
cat > aipp_resnet50.config <<'CFG'
# YUV420SP_U8 (NV12) -> RGB (JPEG full range), then normalisation.
aipp_op {
  aipp_mode: static
  input_format: YUV420SP_U8
  src_image_size_w: 224
  src_image_size_h: 224
  csc_switch: true
  rbuv_swap_switch: false
  matrix_r0c0: 256
  matrix_r0c1: 0
  matrix_r0c2: 359
  matrix_r1c0: 256
  matrix_r1c1: -88
  matrix_r1c2: -183
  matrix_r2c0: 256
  matrix_r2c1: 454
  matrix_r2c2: 0
  input_bias_0: 0
  input_bias_1: 128
  input_bias_2: 128
  mean_chn_0: 124
  mean_chn_1: 117
  mean_chn_2: 104
  min_chn_0: 0.5
  min_chn_1: 0.25
  min_chn_2: 0.0
  var_reci_chn_0: 0.017125
  var_reci_chn_1: 0.017507
  var_reci_chn_2: 0.017429
}
CFG
common=(--model=m.onnx --framework=5 --soc_version=Ascend310 --precision_mode=force_fp32)
run atc "${common[@]}" --output=plain
expect_exit 0
run atc "${common[@]}" --output=aipp --insert_op_conf=aipp_resnet50.config
expect_exit 0
expect_stdout_contains "ATC run success"
expect_file aipp.om

# The OM: an Aipp op reading a uint8 NHWC input of the raw image's shape.
run atc --mode=1 --om=aipp.om --json=aipp.json
expect_exit 0
grep -q '"type": "Aipp"' aipp.json || fail "no Aipp op in the JSON"
grep -q '"dtype": "DT_UINT8"' aipp.json || fail "no uint8 tensor in the JSON"
grep -q '"s": "YUV420SP_U8"' aipp.json || fail "the Aipp op lacks its input_format"
$PY - aipp.json <<'PYCHECK' || fail "the JSON's Aipp op is not as expected"
import json, sys
m = json.load(open(sys.argv[1]))
ops = [o for g in m["graph"] for o in g["op"]]
aipp = [o for o in ops if o["type"] == "Aipp"]
assert len(aipp) == 1, [o["type"] for o in ops]
data = [o for o in ops if o["type"] == "Data"]
dims = [d["output_desc"][0]["shape"]["dim"] for d in data]
assert [int(x) for x in dims[0]] == [1, 336, 224, 1], dims
PYCHECK

# Run: the raw image through the AIPP model, the numpy tensor through the plain one.
run msame --model aipp.om --input image.bin --output out_aipp --dump true
expect_exit 0
run msame --model plain.om --input ref.bin --output out_plain
expect_exit 0
a=$(ls out_aipp/*/aipp_output_0.bin)
p=$(ls out_plain/*/plain_output_0.bin)
expect_file "$a"
expect_file "$p"
cos=$($PY "$case_py" cosine "$a" "$p") || fail "cosine: $cos"
echo "cosine(AIPP model on NV12, plain model on numpy RGB) = $cos"
$PY -c "import sys; sys.exit(0 if float('$cos') >= 0.9999 else 1)" || fail "cosine $cos < 0.9999"
run msame --model plain.om --input ref_float.bin --output out_float
expect_exit 0
cosf=$($PY "$case_py" cosine "$a" "$(ls out_float/*/plain_output_0.bin)") || fail "cosine: $cosf"
echo "cosine(AIPP model, plain model on a float JPEG YUV->RGB conversion) = $cosf"
$PY -c "import sys; sys.exit(0 if float('$cosf') >= 0.999 else 1)" || fail "cosine $cosf < 0.999"
# The layer dumps hold the Aipp op like any other.
find out_aipp/dump -type f -name 'Aipp.*' | grep -q . || fail "no Aipp dump file"
# ... and msprof's op statistics.
run msprof --application="msame --model aipp.om --input image.bin --output out_prof" --output prof
expect_exit 0
grep -q ',Aipp,AI_CORE,' prof/PROF_*/mindstudio_profiler_output/op_statistic_*.csv ||
  fail "no Aipp row in the profile"
