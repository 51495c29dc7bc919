# DeformConv-19 (issue 31), 2-D: with a mask, a bias and pads, offsets that move taps outside the
# image; and with group 2, offset_group 2, strides, dilations, two images and neither mask nor
# bias; 3-D (volumes, trilinear sampling) with a mask, pads, strides and offset_group 2; 1-D with
# dilations. Each converts and runs against a numpy loop over the ONNX definition
# (tests/testkit/formulas.py). Four spatial dims are refused with E10055.
PY=/usr/bin/python3
$PY -c "import onnx" 2>/dev/null || skip "needs python3-onnx (scripts/install-deps.sh --test installs it)"
$PY - "$ROOT/tests/testkit" <<'PYEOF' || fail "could not write the models"
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
sys.path.insert(0, sys.argv[1])
import formulas
rng = np.random.default_rng(19)

def write(name, x, w, offset, b, mask, attrs, xs=None):
    inits = [numpy_helper.from_array(w, "w")]
    ins = ["x", "w", "offset"]
    if b is not None:
        inits.append(numpy_helper.from_array(b, "b"))
    ins.append("b" if b is not None else "")
    feeds = [("x", x), ("offset", offset)]
    if mask is not None:
        ins.append("mask")
        feeds.append(("mask", mask))
    node = helper.make_node("DeformConv", ins, ["y"], name="dc", **attrs)
    inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(a.shape)) for n, a in feeds]
    g = helper.make_graph([node], name, inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)])
    m.ir_version = 9
    save(m, name + ".onnx")
    for n, a in feeds:
        np.save("%s_%s.npy" % (name, n), a)
    if xs is None:
        want = formulas.deform_conv(x.astype(np.float64), w.astype(np.float64), offset.astype(np.float64),
                                    None if b is None else b.astype(np.float64),
                                    None if mask is None else mask.astype(np.float64),
                                    strides=attrs.get("strides"), pads=attrs.get("pads"),
                                    dil=attrs.get("dilations"), group=attrs.get("group", 1),
                                    offset_group=attrs.get("offset_group", 1))
        np.save(name + "_want.npy", want)

f = lambda *s: rng.standard_normal(s).astype(np.float32)
write("dc1", f(1, 4, 5, 5), f(6, 4, 3, 3), f(1, 18, 5, 5) * 1.5, f(6), rng.random((1, 9, 5, 5)).astype(np.float32),
      {"pads": [1, 1, 1, 1]})
write("dc2", f(2, 4, 7, 7), f(4, 2, 2, 2), f(2, 16, 3, 3), None, None,
      {"group": 2, "offset_group": 2, "strides": [2, 2], "dilations": [2, 2]})
write("dc3", f(1, 4, 4, 5, 3), f(2, 2, 2, 2, 2), f(1, 48, 2, 3, 3) * 1.2, f(2),
      rng.random((1, 16, 2, 3, 3)).astype(np.float32),
      {"pads": [1, 0, 1, 0, 1, 0], "strides": [2, 2, 1], "offset_group": 2, "group": 2})
write("dc1d", f(1, 3, 9), f(2, 3, 3), f(1, 3, 5) * 2, f(2), None, {"dilations": [2]})
# 4 spatial dims: refused
x4 = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 3, 3, 3, 3])
o4 = helper.make_tensor_value_info("offset", TensorProto.FLOAT, [1, 4, 3, 3, 3, 3])
g = helper.make_graph([helper.make_node("DeformConv", ["x", "w", "offset"], ["y"], name="dc4")], "dc4", [x4, o4],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                      [numpy_helper.from_array(f(1, 1, 1, 1, 1, 1), "w")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)])
m.ir_version = 9
save(m, "dc4.onnx")
PYEOF
for name in dc1 dc2 dc3 dc1d; do
  run atc --model=$name.onnx --framework=5 --output=$name --soc_version=Ascend310P3 --precision_mode=force_fp32
  expect_exit 0
  ins=${name}_x.npy,${name}_offset.npy
  [ -f ${name}_mask.npy ] && ins=$ins,${name}_mask.npy
  run msame --model $name.om --input $ins --output out_$name --outfmt BIN
  expect_exit 0
  expect_close_npy "$(ls out_$name/*/${name}_output_0.bin)" ${name}_want.npy
done
run atc --model=dc4.onnx --framework=5 --output=dc4 --soc_version=Ascend310P3
expect_exit 255
expect_stdout_contains "E10055"
expect_stdout_contains "DeformConv is built for 1 to 3 spatial dims"
expect_no_file dc4.om
