# Random small graphs against numpy: the runtime's buffer planning (lifetimes, in-place
# residuals, joined and left-out Concats, conversions after the last kernel) must never let
# two live tensors share bytes, whatever the graph's shape. Each model draws 6-14 nodes from
# Conv (1x1 and padded 3x3, some with a fused Relu or a residual Add after them), Add, Relu,
# Concat along channels (two or three inputs, the same one twice at times) and a shape-keeping
# MaxPool, and makes 1-4 of its values outputs (some of them read again later, the input too at
# times). Every output of every model must match a float64 numpy evaluation, in the CPU's own
# layout and with channels-last forced, the OM and the ONNX model alike. (With the many-outputs
# bug of 2026-12-06 back, the first model already fails: an output off by 78.) RANDOM_GRAPHS=N
# runs N models instead of 16, and RANDOM_GRAPHS_FROM=K starts at seed K (for longer searches);
# RANDOM_GRAPHS_PRECISION=allow_fp32_to_fp16 converts them with fp16 activations (then each
# output's largest difference must stay within 2 % of its largest value: fp16 rounding through
# a dozen layers, far below what a shared buffer does).
PY=/usr/bin/python3
$PY -c "import onnx" 2>/dev/null || skip "needs python3-onnx (scripts/install-deps.sh --test installs it)"
PYTHONPATH="$ROOT/tests/cli" $PY - <<'PYEOF' || fail "could not write the models"
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
import os
from numpy_ref import conv, maxpool

first = int(os.environ.get("RANDOM_GRAPHS_FROM", "0"))
for seed in range(first, first + int(os.environ.get("RANDOM_GRAPHS", "16"))):
    rng = np.random.default_rng(1000 + seed)
    H, W = int(rng.integers(3, 9)), int(rng.integers(3, 9))
    c0 = int(rng.integers(2, 12))
    x = rng.standard_normal((1, c0, H, W)).astype(np.float32)
    vals = {"x": x.astype(np.float64)}
    nodes, inits, order = [], [], ["x"]
    def pick():
        return order[int(rng.integers(max(0, len(order) - 4), len(order)))]
    for k in range(int(rng.integers(6, 15))):
        name = "v%d" % k
        op = rng.choice(["conv1", "conv3", "add", "relu", "concat", "pool"], p=[.25, .2, .15, .1, .2, .1])
        a = pick()
        if op in ("conv1", "conv3"):
            ks = 1 if op == "conv1" else 3
            co = int(rng.integers(1, 24))
            w = (rng.standard_normal((co, vals[a].shape[1], ks, ks)) * 0.3).astype(np.float32)
            b = (rng.standard_normal(co) * 0.1).astype(np.float32)
            inits += [numpy_helper.from_array(w, name + "_w"), numpy_helper.from_array(b, name + "_b")]
            nodes.append(helper.make_node("Conv", [a, name + "_w", name + "_b"], [name],
                                          kernel_shape=[ks, ks], pads=[ks // 2] * 4))
            vals[name] = conv(vals[a], w.astype(np.float64), ks // 2) + b.reshape(1, -1, 1, 1)
        elif op == "add":
            same = [v for v in order if vals[v].shape == vals[a].shape]
            bb = same[int(rng.integers(0, len(same)))]
            nodes.append(helper.make_node("Add", [a, bb], [name]))
            vals[name] = vals[a] + vals[bb]
        elif op == "relu":
            nodes.append(helper.make_node("Relu", [a], [name]))
            vals[name] = np.maximum(vals[a], 0)
        elif op == "concat":
            ins = [a] + [pick() for _ in range(int(rng.integers(1, 3)))]
            nodes.append(helper.make_node("Concat", ins, [name], axis=1))
            vals[name] = np.concatenate([vals[i] for i in ins], 1)
        else:
            nodes.append(helper.make_node("MaxPool", [a], [name], kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
            vals[name] = maxpool(vals[a], 3, 1, 1)
        order.append(name)
    outs = [order[-1]] + list(rng.choice(order[:-1], size=int(rng.integers(0, 4)), replace=False))
    outs = list(dict.fromkeys(outs))
    g = helper.make_graph(nodes, "g%d" % seed, [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
                          [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    save(m, "g%d.onnx" % seed)
    np.save("x%d.npy" % seed, x)
    for i, o in enumerate(outs):
        np.save("want%d_%d.npy" % (seed, i), vals[o])
    with open("outs%d" % seed, "w") as f:
        f.write("%d\n" % len(outs))
PYEOF
from=${RANDOM_GRAPHS_FROM:-0}
precision=${RANDOM_GRAPHS_PRECISION:-force_fp32}
# expect_close BIN NPY: elementwise at 1e-4 in fp32; in fp16, against the output's largest value.
expect_close() {
  if [ "$precision" = force_fp32 ]; then
    expect_close_npy "$1" "$2" 1e-4
    return
  fi
  CHECKS=$((CHECKS + 1))
  $PY - "$1" "$2" <<'PY' >"$STDOUT" 2>&1 || fail "$1 does not match $2: $(cat "$STDOUT")"
import sys, numpy as np
want = np.load(sys.argv[2])
got = np.fromfile(sys.argv[1], np.float32).reshape(want.shape)
d = np.abs(got - want).max()
sys.exit(0 if d <= 2e-2 * max(1.0, np.abs(want).max()) else "max |diff| %g of max |want| %g" % (d, np.abs(want).max()))
PY
}
for seed in $(seq "$from" $((from + ${RANDOM_GRAPHS:-16} - 1))); do
  n=$(cat outs$seed)
  run atc --model=g$seed.onnx --framework=5 --output=g$seed --soc_version=Ascend310 --precision_mode="$precision"
  expect_exit 0
  for layout in own nhwc; do
    env=()
    [ $layout = nhwc ] && env=(ASC_CPU_LAYOUT=nhwc)
    models=(g$seed.om)
    [ "$precision" = force_fp32 ] && models+=(g$seed.onnx)  # (an ONNX model runs in fp32)
    for model in "${models[@]}"; do
      out="o_${seed}_${layout}_${model##*.}"
      run env "${env[@]}" msame --model "$model" --input x$seed.npy --output "$out" --outfmt BIN --loop 2
      expect_exit 0
      for i in $(seq 0 $((n - 1))); do
        expect_close "$(ls "$out"/*/g${seed}_output_$i.bin)" want${seed}_$i.npy
      done
    done
  done
done
