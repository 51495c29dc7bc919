# SqueezeNet's fire modules: two expand convolutions joined by a Concat along channels, read by
# the next module's 1x1 squeeze convolution or by a MaxPool. On channels-last activations
# (AVX-512 CPUs, or ASC_CPU_LAYOUT=nhwc) the reader takes the Concat's inputs where their
# producers left them: the 1x1 Conv as one convolution per input over its slice of the weights,
# summed in place; the MaxPool pooling each input into its channels of the output. The Concat's
# copy is left out of runs nobody observes (msame --debug names both); ASC_CONCAT_READERS=0
# keeps the copy, and a dump still sees the Concat's output. Every way, the outputs match a
# float64 numpy evaluation of the ONNX model: channel counts that are not a multiple of the
# vector width, three inputs, a Conv without bias and one with a fused Relu, a padded ceil-mode
# pool, a strided 1x1 Conv and a Concat read twice (neither served), a batch of two. On an
# AVX-512 CPU the pool's portable loop runs too, under oneDNN's ISA cap with channels-last forced.
PY=/usr/bin/python3
$PY -c "import onnx" 2>/dev/null || skip "needs python3-onnx (scripts/install-deps.sh --test installs it)"
PYTHONPATH="$ROOT/tests/cli" $PY - <<'PYEOF' || fail "could not write the model"
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
from numpy_ref import conv, maxpool
rng = np.random.default_rng(36)

relu = lambda a: np.maximum(a, 0)
x = rng.standard_normal((2, 12, 11, 13)).astype(np.float32)  # a batch of two
inits, nodes, params = [], [], {}
def const(name, shape, scale=0.3):
    w = (rng.standard_normal(shape) * scale).astype(np.float32)
    inits.append(numpy_helper.from_array(w, name))
    params[name] = w.astype(np.float64)
    return name

# Fire 1: squeeze 12 -> 5, expand 1x1 -> 13 and 3x3 -> 20, joined (33 channels).
nodes.append(helper.make_node("Conv", ["x", const("ws1", (5, 12, 1, 1)), const("bs1", (5,))], ["s1c"], kernel_shape=[1, 1]))
nodes.append(helper.make_node("Relu", ["s1c"], ["s1"]))
nodes.append(helper.make_node("Conv", ["s1", const("we1", (13, 5, 1, 1)), const("be1", (13,))], ["e1"], kernel_shape=[1, 1]))
nodes.append(helper.make_node("Conv", ["s1", const("wf1", (20, 5, 3, 3)), const("bf1", (20,))], ["f1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
nodes.append(helper.make_node("Concat", ["e1", "f1"], ["cat1"], name="cat1", axis=1))
# Read by the next squeeze (a fused Relu): served.
nodes.append(helper.make_node("Conv", ["cat1", const("ws2", (7, 33, 1, 1)), const("bs2", (7,))], ["s2c"], kernel_shape=[1, 1]))
nodes.append(helper.make_node("Relu", ["s2c"], ["s2"]))
nodes.append(helper.make_node("Conv", ["s2", const("we2", (16, 7, 1, 1))], ["e2"], kernel_shape=[1, 1]))
nodes.append(helper.make_node("Conv", ["s2", const("wf2", (9, 7, 3, 3))], ["f2"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
nodes.append(helper.make_node("Conv", ["s2", const("wg2", (4, 7, 1, 1))], ["g2"], kernel_shape=[1, 1]))
nodes.append(helper.make_node("Concat", ["e2", "f2", "g2"], ["cat2"], name="cat2", axis=-3))
# Read by a padded ceil-mode MaxPool: served.
nodes.append(helper.make_node("MaxPool", ["cat2"], ["p2"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1))
# Read by a 1x1 Conv without bias: served.
nodes.append(helper.make_node("Concat", ["p2", "p2"], ["cat3"], name="cat3", axis=1))
nodes.append(helper.make_node("Conv", ["cat3", const("wh3", (10, 58, 1, 1))], ["h3"], kernel_shape=[1, 1]))
# Read by a strided 1x1 Conv: not served.
nodes.append(helper.make_node("Concat", ["h3", "h3"], ["cat4"], name="cat4", axis=1))
nodes.append(helper.make_node("Conv", ["cat4", const("wk4", (6, 20, 1, 1))], ["k4"], kernel_shape=[1, 1], strides=[2, 2]))
# Read twice: not served.
nodes.append(helper.make_node("Concat", ["k4", "k4"], ["cat5"], name="cat5", axis=1))
nodes.append(helper.make_node("MaxPool", ["cat5"], ["p5"], kernel_shape=[2, 2], strides=[1, 1]))
nodes.append(helper.make_node("Conv", ["cat5", const("wm5", (3, 12, 1, 1))], ["m5"], kernel_shape=[1, 1]))
g = helper.make_graph(nodes, "concat_readers", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
                      [helper.make_tensor_value_info(v, TensorProto.FLOAT, None) for v in ("p5", "m5")], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
m.ir_version = 8
save(m, "concat_readers.onnx")
np.save("x.npy", x)
p = params
xd = x.astype(np.float64)
s1 = relu(conv(xd, p["ws1"], 0, b=p["bs1"]))
cat1 = np.concatenate([conv(s1, p["we1"], 0, b=p["be1"]), conv(s1, p["wf1"], 1, b=p["bf1"])], 1)
s2 = relu(conv(cat1, p["ws2"], 0, b=p["bs2"]))
cat2 = np.concatenate([conv(s2, p["we2"], 0), conv(s2, p["wf2"], 1), conv(s2, p["wg2"], 0)], 1)
p2 = maxpool(cat2, 3, 2, 1, True)
h3 = conv(np.concatenate([p2, p2], 1), p["wh3"], 0)
k4 = conv(np.concatenate([h3, h3], 1), p["wk4"], 0, stride=2)
cat5 = np.concatenate([k4, k4], 1)
np.save("want0.npy", maxpool(cat5, 2, 1, 0, False))
np.save("want1.npy", conv(cat5, p["wm5"], 0))
np.save("want_cat1.npy", cat1)
PYEOF
run atc --model=concat_readers.onnx --framework=5 --output=m --soc_version=Ascend310P3 --precision_mode=force_fp32
expect_exit 0
check_outputs() {  # DIR: both outputs against numpy
  expect_close_npy "$(ls "$1"/*/m_output_0.bin)" want0.npy 1e-4
  expect_close_npy "$(ls "$1"/*/m_output_1.bin)" want1.npy 1e-4
}
nhwc="ASC_CPU_LAYOUT=nhwc"
run env $nhwc msame --model m.om --input x.npy --output fused --outfmt BIN --debug true
expect_exit 0
for step in "cat1 (ConcatD) concat (left out of unobserved runs: its Conv reads its inputs)" \
  "cat2 (ConcatD) concat (left out of unobserved runs: its MaxPool reads its inputs)" \
  "cat3 (ConcatD) concat (left out of unobserved runs: its Conv reads its inputs)"; do
  grep -qF "$step" "$STDOUT" || fail "the plan lacks: $step"
done
expect_stdout_contains "(reading the Concat's inputs)"
expect_stdout_contains "(reading the Concat's 3 inputs)"
for cat in cat4 cat5; do
  grep -qE "^ +[0-9]+ $cat \(ConcatD\) concat$" "$STDOUT" || fail "$cat lost its copy"
done
check_outputs fused
run env $nhwc ASC_CONCAT_READERS=0 msame --model m.om --input x.npy --output kept --outfmt BIN --debug true
expect_exit 0
expect_stdout_not_contains "left out of unobserved runs"
check_outputs kept
# A dump observes every node's output: the Concat's copy runs, and its output is the inputs
# joined.
run env $nhwc msame --model m.om --input x.npy --output dumped --outfmt BIN --dump true --dump_format npy
expect_exit 0
check_outputs dumped
cat1=$(find dumped/dump -name 'ConcatD.cat1.*.output.0.npy' | head -1)
[ -n "$cat1" ] || fail "the dump holds no output of Concat 'cat1'"
$PY - "$cat1" <<'PY' || fail "the dumped Concat output is not its inputs joined"
import sys, numpy as np
got, want = np.load(sys.argv[1]), np.load("want_cat1.npy")
sys.exit(0 if got.size == want.size and np.allclose(got.reshape(want.shape), want, rtol=1e-4, atol=1e-4) else 1)
PY
if grep -qw avx512f /proc/cpuinfo; then
  run env ONEDNN_MAX_CPU_ISA=AVX2 $nhwc msame --model m.om --input x.npy --output capped --outfmt BIN --debug true
  expect_exit 0
  expect_stdout_contains "direct:scalar:nhwc (reading the Concat's 3 inputs)"
  check_outputs capped
fi
