# DenseNet's layer head: Concat of feature maps along channels, then BatchNormalization + Relu.
# On channels-last activations (AVX-512 CPUs, or ASC_CPU_LAYOUT=nhwc) the batch norm reads the
# Concat's inputs where their producers left them and the Concat's copy is left out of runs
# nobody observes (msame --debug names both); ASC_CONCAT_BN=0 keeps the copy, and a dump
# (--dump true: every node's output) still sees the Concat's output. Every way, the outputs
# match a float64 numpy evaluation of the ONNX model: channel counts that are not a multiple of
# the vector width, an axis counted from the end, a batch norm without Relu, a third Concat read
# twice (not served) and a batch of two. On an AVX-512 CPU the AVX2 loop runs
# too, under oneDNN's ISA cap with channels-last forced.
PY=/usr/bin/python3
$PY -c "import onnx" 2>/dev/null || skip "needs python3-onnx (scripts/install-deps.sh --test installs it)"
PYTHONPATH="$ROOT/tests/cli" $PY - <<'PYEOF' || fail "could not write the model"
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
from numpy_ref import conv
rng = np.random.default_rng(35)

def bn(x, p, eps):
    s, b, m, v = p
    r = lambda a: a.reshape(1, -1, 1, 1)
    return (x - r(m)) / np.sqrt(r(v) + eps) * r(s) + r(b)

x = rng.standard_normal((2, 16, 7, 9)).astype(np.float32)  # a batch of two
inits, nodes, params = [], [], {}
def weight(name, shape):
    w = rng.standard_normal(shape).astype(np.float32) * 0.3
    inits.append(numpy_helper.from_array(w, name))
    params[name] = w.astype(np.float64)
    return name
def bn_params(prefix, c):
    p = [rng.uniform(0.5, 1.5, c), rng.standard_normal(c), rng.standard_normal(c) * 0.1,
         rng.uniform(0.5, 2.0, c)]
    names = []
    for tag, a in zip(["s", "b", "m", "v"], p):
        inits.append(numpy_helper.from_array(a.astype(np.float32), prefix + tag))
        names.append(prefix + tag)
    params[prefix] = [a.astype(np.float32).astype(np.float64) for a in p]
    return names

nodes.append(helper.make_node("Conv", ["x", weight("wa", (16, 16, 1, 1))], ["a"], kernel_shape=[1, 1]))
nodes.append(helper.make_node("Conv", ["x", weight("wb", (24, 16, 3, 3))], ["b"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
nodes.append(helper.make_node("Conv", ["x", weight("wc", (5, 16, 3, 3))], ["c"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
# Layer 1: BN + Relu of [a, b, c] (45 channels: 16 + 24 + 5).
nodes.append(helper.make_node("Concat", ["a", "b", "c"], ["cat1"], name="cat1", axis=1))
nodes.append(helper.make_node("BatchNormalization", ["cat1"] + bn_params("bn1", 45), ["n1"], epsilon=1e-5))
nodes.append(helper.make_node("Relu", ["n1"], ["r1"]))
nodes.append(helper.make_node("Conv", ["r1", weight("wd", (8, 45, 1, 1))], ["d"], kernel_shape=[1, 1]))
# Layer 2: BN (no Relu) of [a, d, b] (-3: the axis counted from the end).
nodes.append(helper.make_node("Concat", ["a", "d", "b"], ["cat2"], name="cat2", axis=-3))
nodes.append(helper.make_node("BatchNormalization", ["cat2"] + bn_params("bn2", 48), ["n2"], epsilon=1e-3))
# A Concat read by two nodes keeps its copy.
nodes.append(helper.make_node("Concat", ["b", "d"], ["cat3"], name="cat3", axis=1))
nodes.append(helper.make_node("BatchNormalization", ["cat3"] + bn_params("bn3", 32), ["n3"], epsilon=1e-5))
nodes.append(helper.make_node("Relu", ["n3"], ["r3"]))
nodes.append(helper.make_node("Conv", ["cat3", weight("we", (32, 32, 1, 1))], ["e"], kernel_shape=[1, 1]))
nodes.append(helper.make_node("Add", ["r3", "e"], ["f"]))
nodes.append(helper.make_node("Concat", ["n2", "f"], ["y"], axis=1))
g = helper.make_graph(nodes, "concat_bn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
m.ir_version = 8
save(m, "concat_bn.onnx")
np.save("x.npy", x)
xd = x.astype(np.float64)
a, b, c = conv(xd, params["wa"], 0), conv(xd, params["wb"], 1), conv(xd, params["wc"], 1)
r1 = np.maximum(bn(np.concatenate([a, b, c], 1), params["bn1"], 1e-5), 0)
d = conv(r1, params["wd"], 0)
n2 = bn(np.concatenate([a, d, b], 1), params["bn2"], 1e-3)
cat3 = np.concatenate([b, d], 1)
f = np.maximum(bn(cat3, params["bn3"], 1e-5), 0) + conv(cat3, params["we"], 0)
np.save("want.npy", np.concatenate([n2, f], 1))
np.save("want_cat1.npy", np.concatenate([a, b, c], 1))
PYEOF
run atc --model=concat_bn.onnx --framework=5 --output=m --soc_version=Ascend310P3 --precision_mode=force_fp32
expect_exit 0
# Channels-last on an AVX2 CPU and under oneDNN's ISA cap too (AVX-512's default).
nhwc="ASC_CPU_LAYOUT=nhwc"
run env $nhwc msame --model m.om --input x.npy --output fused --outfmt BIN --debug true
expect_exit 0
expect_stdout_contains "concat_batchnorm:"
for cat in cat1 cat2; do
  grep -qE "^ +[0-9]+ $cat \(ConcatD\) concat \(left out of unobserved runs: its batch norm reads its inputs\)" "$STDOUT" ||
    fail "the plan does not leave $cat's copy out"
done
grep -qE "^ +[0-9]+ cat3 \(ConcatD\) concat$" "$STDOUT" || fail "cat3, read twice, lost its copy"
expect_close_npy "$(ls fused/*/m_output_0.bin)" want.npy 1e-4
run env $nhwc ASC_CONCAT_BN=0 msame --model m.om --input x.npy --output kept --outfmt BIN --debug true
expect_exit 0
expect_stdout_not_contains "concat_batchnorm:"
expect_close_npy "$(ls kept/*/m_output_0.bin)" want.npy 1e-4
# A dump observes every node's output: the Concat's copy runs, and its output is the inputs
# joined.
run env $nhwc msame --model m.om --input x.npy --output dumped --outfmt BIN --dump true --dump_format npy
expect_exit 0
expect_close_npy "$(ls dumped/*/m_output_0.bin)" want.npy 1e-4
cat1=$(find dumped/dump -name 'ConcatD.cat1.*.output.0.npy' | head -1)
[ -n "$cat1" ] || fail "the dump holds no output of Concat 'cat1'"
/usr/bin/python3 - "$cat1" <<'PY' || fail "the dumped Concat output is not its inputs joined"
import sys, numpy as np
got, want = np.load(sys.argv[1]), np.load("want_cat1.npy")
sys.exit(0 if got.size == want.size and np.allclose(got.reshape(want.shape), want, rtol=1e-4, atol=1e-4) else 1)
PY
if grep -qw avx512f /proc/cpuinfo; then
  run env ONEDNN_MAX_CPU_ISA=AVX2 ASC_CPU_LAYOUT=nhwc msame --model m.om --input x.npy --output avx2 --outfmt BIN --debug true
  expect_exit 0
  expect_stdout_contains "concat_batchnorm:avx2:nhwc"
  expect_close_npy "$(ls avx2/*/m_output_0.bin)" want.npy 1e-4
fi
# msprof times the run nobody observes: each left-out copy is a ConcatD row of no duration, the
# Concat read twice keeps its time.
run env $nhwc msprof --output=prof msame --model m.om --input x.npy --output profiled --loop 3
expect_exit 0
/usr/bin/python3 - <<'PY' || fail "op_summary does not show the left-out copies: $(cat "$STDOUT")"
import csv, glob, sys
rows = list(csv.DictReader(open(glob.glob("prof/PROF_*/mindstudio_profiler_output/op_summary_*.csv")[0])))
dur = {}
for r in rows:
    dur.setdefault(r["Op Name"], []).append(float(r["Task Duration(us)"]))
ok = all(v == 0 for v in dur["cat1"] + dur["cat2"]) and len(dur["cat1"]) == 3
ok = ok and max(dur["cat3"]) > 0 and min(min(v) for k, v in dur.items() if k.startswith("Batch")) > 0
sys.exit(0 if ok else "durations: %s" % {k: v for k, v in dur.items() if "cat" in k or "Batch" in k})
PY
