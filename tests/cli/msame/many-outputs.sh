# A model whose outputs each need a conversion step after the last kernel (a reorder from the
# blocked layout to plain): every output must survive the conversions that make the outputs
# after it. Until 2026-12-06 an output lived only to the first conversion step after the last
# kernel, and on channels-last activations the third output's reorder wrote over the first
# two (their bytes were free by the planner's count): msame returned another output's numbers
# with exit 0. Five Conv outputs of different sizes, two Concats of the same inputs (one also an
# output), in the CPU's own layout and with channels-last forced, against numpy.
PY=/usr/bin/python3
$PY -c "import onnx" 2>/dev/null || skip "needs python3-onnx (scripts/install-deps.sh --test installs it)"
$PY - <<'PYEOF' || fail "could not write the model"
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
rng = np.random.default_rng(37)
x = rng.standard_normal((1, 8, 9, 11)).astype(np.float32)
inits, nodes, want = [], [], []
def conv(name, inp, w):
    inits.append(numpy_helper.from_array(w, name + "_w"))
    nodes.append(helper.make_node("Conv", [inp, name + "_w"], [name], kernel_shape=[1, 1]))
xd = x.astype(np.float64)
outs = []
for i, c in enumerate([3, 17, 8, 30, 5]):
    w = (rng.standard_normal((c, 8, 1, 1)) * 0.3).astype(np.float32)
    conv("c%d" % i, "x", w)
    outs.append("c%d" % i)
    want.append(np.einsum("nchw,oc->nohw", xd, w[:, :, 0, 0].astype(np.float64)))
nodes.append(helper.make_node("Concat", ["c1", "c2"], ["cat"], axis=1))
w = (rng.standard_normal((4, 25, 1, 1)) * 0.3).astype(np.float32)
conv("d", "cat", w)
nodes.append(helper.make_node("Concat", ["c1", "c2"], ["twice"], axis=1))
cat = np.concatenate([want[1], want[2]], 1)
outs += ["d", "twice"]
want += [np.einsum("nchw,oc->nohw", cat, w[:, :, 0, 0].astype(np.float64)), cat]
g = helper.make_graph(nodes, "outs", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
                      [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
m.ir_version = 8
save(m, "outs.onnx")
np.save("x.npy", x)
for i, a in enumerate(want):
    np.save("want%d.npy" % i, a)
PYEOF
run atc --model=outs.onnx --framework=5 --output=m --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
for layout in own nhwc; do
  env=()
  [ $layout = nhwc ] && env=(ASC_CPU_LAYOUT=nhwc)
  run env "${env[@]}" msame --model m.om --input x.npy --output "$layout" --outfmt BIN --loop 2
  expect_exit 0
  for i in 0 1 2 3 4 5 6; do
    expect_close_npy "$(ls "$layout"/*/m_output_$i.bin)" want$i.npy 1e-5
  done
done
# The ONNX model run directly takes the same path.
run env ASC_CPU_LAYOUT=nhwc msame --model outs.onnx --input x.npy --output onnx --outfmt BIN
expect_exit 0
for i in 0 1 2 3 4 5 6; do
  expect_close_npy "$(ls onnx/*/outs_output_$i.bin)" want$i.npy 1e-5
done
