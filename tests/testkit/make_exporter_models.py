#!/usr/bin/python3
"""make_exporter_models.py OUT_DIR: a transformer encoder layer (post-norm, 2 heads, d 16, ffn 32,
8 tokens) written the way exporters write it at three opsets, with one numpy reference output,
for tests/cli/models/exporter-opsets.sh:
  t18  opset 18: LayerNorm and GELU decomposed (ReduceMean with axes as an input, the erf form),
       QKV split with Split num_outputs, attention as MatMul, Div, Softmax, MatMul
  t20  opset 20: LayerNormalization and Gelu ops
  t23  opset 23: the Attention op over [B, H, S, D] and RMSNormalization with Gelu tanh (t23 has
       its own reference, want23.npy)
Written with onnx.helper and saved without onnx.checker (onnx 1.12 knows opsets up to 17).
x.npy is the input, want.npy the reference of t18 and t20 (float64 numpy)."""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(2024)
S, D, H, F = 8, 16, 2, 32
x = rng.standard_normal((1, S, D)).astype(np.float32)
np.save(os.path.join(out, "x.npy"), x)
W = {
    "wqkv": rng.standard_normal((D, 3 * D)) / 4, "bqkv": rng.standard_normal(3 * D) / 10,
    "wo": rng.standard_normal((D, D)) / 4, "bo": rng.standard_normal(D) / 10,
    "w1": rng.standard_normal((D, F)) / 4, "b1": rng.standard_normal(F) / 10,
    "w2": rng.standard_normal((F, D)) / 6, "b2": rng.standard_normal(D) / 10,
    "g1": 1 + rng.standard_normal(D) / 10, "be1": rng.standard_normal(D) / 10,
    "g2": 1 + rng.standard_normal(D) / 10, "be2": rng.standard_normal(D) / 10,
}
W = {k: v.astype(np.float32) for k, v in W.items()}
EPS = 1e-5


def reference(rms=False, tanh_gelu=False):
    w = {k: v.astype(np.float64) for k, v in W.items()}
    h = x.astype(np.float64)

    def norm(v, g, b):
        if rms:
            return v / np.sqrt((v ** 2).mean(-1, keepdims=True) + EPS) * g
        m = v.mean(-1, keepdims=True)
        return (v - m) / np.sqrt(((v - m) ** 2).mean(-1, keepdims=True) + EPS) * g + b

    def gelu(v):
        if tanh_gelu:
            return 0.5 * v * (1 + np.tanh(np.sqrt(2 / np.pi) * (v + 0.044715 * v ** 3)))
        from math import erf
        return 0.5 * v * (1 + np.vectorize(erf)(v / np.sqrt(2)))

    qkv = h @ w["wqkv"] + w["bqkv"]
    q, k, v = (qkv[..., i * D:(i + 1) * D].reshape(1, S, H, D // H).transpose(0, 2, 1, 3)
               for i in range(3))
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D // H)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    a = (p @ v).transpose(0, 2, 1, 3).reshape(1, S, D)
    x1 = norm(h + a @ w["wo"] + w["bo"], w["g1"], w["be1"])
    f = gelu(x1 @ w["w1"] + w["b1"]) @ w["w2"] + w["b2"]
    return norm(x1 + f, w["g2"], w["be2"])


np.save(os.path.join(out, "want.npy"), reference())
np.save(os.path.join(out, "want23.npy"), reference(rms=True, tanh_gelu=True))


class G:
    def __init__(self):
        self.nodes, self.inits, self.n = [], [], 0

    def const(self, name, arr):
        self.inits.append(numpy_helper.from_array(np.asarray(arr), name))
        return name

    def op(self, t, ins, n_out=1, **attrs):
        self.n += 1
        outs = ["%s_%d_%d" % (t.lower(), self.n, i) for i in range(n_out)]
        self.nodes.append(helper.make_node(t, ins, outs, name="/%s_%d" % (t, self.n), **attrs))
        return outs if n_out > 1 else outs[0]


def build(opset):
    g = G()
    for k, v in W.items():
        g.const(k, v)
    g.const("axes_last", np.array([-1], np.int64))
    g.const("eps", np.array(EPS, np.float32))
    g.const("two", np.array(2, np.float32))
    g.const("sqrt2", np.array(np.sqrt(2), np.float32))
    g.const("one", np.array(1, np.float32))
    g.const("half", np.array(0.5, np.float32))
    g.const("scale", np.array(np.sqrt(D // H), np.float32))
    g.const("heads", np.array([1, S, H, D // H], np.int64))
    g.const("merged", np.array([1, S, D], np.int64))

    def norm(v, gamma, beta):
        if opset >= 23:
            return g.op("RMSNormalization", [v, gamma], axis=-1, epsilon=EPS)
        if opset >= 20:
            return g.op("LayerNormalization", [v, gamma, beta], axis=-1, epsilon=EPS)
        m = g.op("ReduceMean", [v, "axes_last"], keepdims=1)
        d = g.op("Sub", [v, m])
        var = g.op("ReduceMean", [g.op("Pow", [d, "two"]), "axes_last"], keepdims=1)
        n = g.op("Div", [d, g.op("Sqrt", [g.op("Add", [var, "eps"])])])
        return g.op("Add", [g.op("Mul", [n, gamma]), beta])

    def gelu(v):
        if opset >= 23:
            return g.op("Gelu", [v], approximate="tanh")
        if opset >= 20:
            return g.op("Gelu", [v])
        e = g.op("Erf", [g.op("Div", [v, "sqrt2"])])
        return g.op("Mul", [g.op("Mul", [v, g.op("Add", [e, "one"])]), "half"])

    qkv = g.op("Add", [g.op("MatMul", ["x", "wqkv"]), "bqkv"])
    q, k, v = g.op("Split", [qkv], n_out=3, axis=-1, num_outputs=3)
    q, k, v = (g.op("Transpose", [g.op("Reshape", [t, "heads"])], perm=[0, 2, 1, 3]) for t in (q, k, v))
    if opset >= 23:
        a4 = g.op("Attention", [q, k, v])
    else:
        s = g.op("Div", [g.op("MatMul", [q, g.op("Transpose", [k], perm=[0, 1, 3, 2])]), "scale"])
        a4 = g.op("MatMul", [g.op("Softmax", [s], axis=-1), v])
    a = g.op("Reshape", [g.op("Transpose", [a4], perm=[0, 2, 1, 3]), "merged"])
    x1 = norm(g.op("Add", ["x", g.op("Add", [g.op("MatMul", [a, "wo"]), "bo"])]), "g1", "be1")
    f = g.op("Add", [g.op("MatMul", [gelu(g.op("Add", [g.op("MatMul", [x1, "w1"]), "b1"])), "w2"]), "b2"])
    y = norm(g.op("Add", [x1, f]), "g2", "be2")
    g.nodes[-1].output[0] = "y"
    graph = helper.make_graph(g.nodes, "encoder_layer",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, S, D])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, S, D])],
                              g.inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="asc-tools tests (exporter-shaped)")
    m.ir_version = 10 if opset >= 23 else 9
    save(m, os.path.join(out, "t%d.onnx" % opset))


for o in (18, 20, 23):
    build(o)
