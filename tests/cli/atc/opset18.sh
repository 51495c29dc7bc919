# Opset 18 (issue 31, first step): the forms ONNX 1.13 gave these ops convert and run to the
# numbers of numpy formulas of the spec (tests/testkit/make_opset18.py writes the models with
# protoc, Debian's onnx 1.12 stopping at opset 17): Reduce* with axes as an input (and
# noop_with_empty_axes), Split num_outputs, Pad axes (constant and reflect), Resize axes with
# keep_aspect_ratio_policy, ScatterElements reduction max, the new Mish and GroupNormalization (per-group scale); the decomposed LayerNorm with its
# ReduceMeans' axes as inputs still fuses into one LayerNorm. What is not built yet is refused
# naming the node: an op not built yet (ImageDecoder-20, in opset-later.sh) and Resize antialias=1 with
# tf_crop_and_resize (E10055; antialias itself is resize-antialias.sh). Opset 25 is
# refused (E10055); opsets 19-24 are tests/cli/atc/opset-later.sh.
PY=/usr/bin/python3
[ -x "$PY" ] && command -v protoc >/dev/null || skip "needs /usr/bin/python3 and protoc"
$PY -c "import numpy" 2>/dev/null || skip "needs python3-numpy"
$PY "$ROOT/tests/testkit/make_opset18.py" /usr/include/onnx/onnx.proto . || fail "could not write the models"
cat > close.py <<'PY'
import numpy as np, sys
a = np.fromfile(sys.argv[1], np.float32)
b = np.fromfile(sys.argv[2], np.float32)
ok = a.shape == b.shape and np.allclose(a, b, rtol=1e-5, atol=1e-5)
print("close" if ok else "differs: %s %s max %s" % (a.shape, b.shape,
      np.abs(a - b).max() if a.shape == b.shape else "-"))
PY
for m in reduce split pad resize scatter layernorm mish groupnorm; do
  run atc --model=$m.onnx --framework=5 --output=$m --soc_version=Ascend310 --precision_mode=force_fp32
  expect_exit 0
  run msame --model $m.om --input x.bin --output out_$m
  expect_exit 0
  for want in expect_${m}_*.bin; do
    i=${want##*_}
    i=${i%.bin}
    run $PY close.py "$want" "$(ls out_$m/*/${m}_output_$i.bin)"
    expect_stdout_line "close"
  done
done
run atc --mode=1 --om=layernorm.om --json=ln.json
expect_exit 0
grep -q '"type": "LayerNorm"' ln.json || fail "the opset-18 LayerNorm pattern did not fuse"

proto=/usr/include/onnx
one() {  # one OPSET NODE: a model of x [1, 2, 7, 4] -> NODE -> y
  printf 'ir_version: 8 opset_import { domain: "" version: %s } graph { name: "g" %s
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 2 } dim { dim_value: 7 } dim { dim_value: 4 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 } } } }' "$1" "$2" |
    protoc --encode=onnx.ModelProto -I$proto $proto/onnx.proto
}
# OptionalHasElement-18 and OptionalGetElement-18 on a tensor: true, and the tensor itself.
one 18 'node { op_type: "OptionalGetElement" name: "get" input: "x" output: "g" }
  node { op_type: "OptionalHasElement" name: "has" input: "g" output: "h" }
  node { op_type: "Cast" name: "c" input: "h" output: "hf" attribute { name: "to" type: INT i: 1 } }
  node { op_type: "Mul" name: "m" input: "g" input: "hf" output: "y" }' > opt.onnx
run atc --model=opt.onnx --framework=5 --output=opt --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
run msame --model opt.om --input x.bin --output out_opt
expect_exit 0
cmp x.bin "$(ls out_opt/*/opt_output_0.bin)" || fail "Optional ops on a tensor changed it"
# CenterCropPad-18 is built; a shape with fewer sizes than axes is refused naming the node.
one 18 'node { op_type: "CenterCropPad" name: "crop" input: "x" input: "shape" output: "y" }
  initializer { name: "shape" data_type: 7 dims: 2 int64_data: [4, 4] }' > crop.onnx
run atc --model=crop.onnx --framework=5 --output=crop --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "node 'crop' (CenterCropPad): shape [4,4] has 2 sizes for 4 axes"
expect_no_file crop.om
one 18 'node { op_type: "Resize" name: "aa" input: "x" input: "roi" input: "s" output: "y"
  attribute { name: "antialias" type: INT i: 1 } attribute { name: "mode" type: STRING s: "linear" }
  attribute { name: "coordinate_transformation_mode" type: STRING s: "tf_crop_and_resize" } }
  initializer { name: "roi" data_type: 1 dims: 8 float_data: [0, 0, 0, 0, 1, 1, 1, 1] }
  initializer { name: "s" data_type: 1 dims: 4 float_data: [1, 1, 0.5, 0.5] }' > aa.onnx
run atc --model=aa.onnx --framework=5 --output=aa --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E10055"
expect_stdout_contains "antialias=1 with tf_crop_and_resize"
expect_no_file aa.om
one 25 'node { op_type: "Relu" name: "r" input: "x" output: "y" }' > o25.onnx
run atc --model=o25.onnx --framework=5 --output=o25 --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E10055"
expect_stdout_contains "opset 25"
