# Static AIPP from an RGB888 image stored B, G, R: crop a 222x220 window at (4, 6) of the 228x232
# image, swap R and B (rbuv_swap_switch), normalise, and pad 1 row top and bottom and 2 columns
# left and right with padding_value, giving the model's 224x224. The AIPP model on the raw image
# must match the plain model on the numpy reference (cosine >= 0.9999); the same for XRGB8888
# with both swaps and a crop.
PY=/usr/bin/python3
case_py="$DATA/aipp_case.py"
proto=/usr/include/onnx/onnx.proto
$PY "$case_py" model m.textproto 224 || fail "could not write the model"
protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < m.textproto > m.onnx ||
  fail "protoc could not encode the model"
$PY "$case_py" rgb888 . 224 || fail "could not make the image"
cat > aipp.cfg <<'CFG'
aipp_op {
  aipp_mode: static
  related_input_name: "x"
  input_format: RGB888_U8
  src_image_size_w: 232
  src_image_size_h: 228
  rbuv_swap_switch: true
  crop: true
  load_start_pos_w: 6
  load_start_pos_h: 4
  crop_size_w: 220
  crop_size_h: 222
  padding: true
  left_padding_size: 2
  right_padding_size: 2
  top_padding_size: 1
  bottom_padding_size: 1
  padding_value: 0.5
  mean_chn_0: 124
  mean_chn_1: 117
  mean_chn_2: 104
  min_chn_0: 0.5
  min_chn_1: 0.25
  var_reci_chn_0: 0.017125
  var_reci_chn_1: 0.017507
  var_reci_chn_2: 0.017429
}
CFG
common=(--model=m.onnx --framework=5 --soc_version=Ascend310 --precision_mode=force_fp32)
run atc "${common[@]}" --output=plain
expect_exit 0
run atc "${common[@]}" --output=aipp --insert_op_conf=aipp.cfg
expect_exit 0
run atc --mode=1 --om=aipp.om --json=aipp.json
expect_exit 0
grep -q '"type": "Aipp"' aipp.json || fail "no Aipp op in the JSON"
run msame --model aipp.om --input image.bin --output out_aipp
expect_exit 0
run msame --model plain.om --input ref.bin --output out_plain
expect_exit 0
cos=$($PY "$case_py" cosine "$(ls out_aipp/*/aipp_output_0.bin)" \
  "$(ls out_plain/*/plain_output_0.bin)") || fail "cosine: $cos"
echo "cosine(AIPP model on BGR crop+pad, plain model on numpy) = $cos"
$PY -c "import sys; sys.exit(0 if float('$cos') >= 0.9999 else 1)" || fail "cosine $cos < 0.9999"
# A raw image of the wrong size is refused by msame (the input is 228*232*3 bytes).
head -c 100 image.bin > short.bin
run msame --model aipp.om --input short.bin --output out_short
expect_exit_nonzero

# XRGB8888: ax_swap_switch drops the leading X byte (XRGB -> RGBX), rbuv_swap_switch then gives
# B, G, R; a crop at (1, 3) with the model's own size (crop_size 0).
cat > xrgb.cfg <<'CFG'
aipp_op {
  aipp_mode: static
  input_format: XRGB8888_U8
  ax_swap_switch: true
  rbuv_swap_switch: true
  crop: true
  src_image_size_w: 232
  src_image_size_h: 228
  load_start_pos_w: 3
  load_start_pos_h: 1
}
CFG
run atc "${common[@]}" --output=xrgb --insert_op_conf=xrgb.cfg
expect_exit 0
$PY - <<'PYREF' || fail "could not make the XRGB image"
import numpy as np
img = np.random.default_rng(0).integers(0, 256, (1, 228, 232, 4), dtype=np.uint8)
img.tofile("xrgb.bin")
bgr = img[0, 1:225, 3:227, 1:4][..., ::-1].astype(np.float32)
bgr.transpose(2, 0, 1)[None].tofile("xrgb_ref.bin")
PYREF
run msame --model xrgb.om --input xrgb.bin --output out_xrgb
expect_exit 0
run msame --model plain.om --input xrgb_ref.bin --output out_xrgb_plain
expect_exit 0
cos=$($PY "$case_py" cosine "$(ls out_xrgb/*/xrgb_output_0.bin)" \
  "$(ls out_xrgb_plain/*/plain_output_0.bin)") || fail "cosine: $cos"
echo "cosine(AIPP model on XRGB, plain model on numpy) = $cos"
$PY -c "import sys; sys.exit(0 if float('$cos') >= 0.9999 else 1)" || fail "cosine $cos < 0.9999"
