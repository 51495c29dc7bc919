#!/usr/bin/python3
"""make_fp16_breakers.py OUT_DIR: small CNNs written here, each broken by fp16 storage for one
cause, and one that fp16 does not break, for mscompare's precision debugging tests
(tests/cli/mscompare/debug-*.sh). Every model takes x [1, 4, 8, 8] float32 (x.npy) and gives y.
  rms_square   a hand-written RMS norm: Mul(h, h) of activations near 500 passes 65504
               (overflow); the fix keeps the square, the mean, the epsilon Add and the Sqrt fp32
  offset_mean  a mean subtraction after a large offset: Add(h, 1000), ReduceMean, Sub; fp16's
               spacing of 0.5 near 1000 swamps the small differences (loss in a subtraction)
  underflow    a scale by 1e-7 and back: the values fall into fp16's subnormal range
  softmax_logits  a Softmax over channel logits near 1000 that differ by about 1: fp16's spacing
               of 0.5 there moves every probability (a precision-sensitive op)
  fused_relu   a Conv whose outputs reach about 1e5, fused with the Relu after it: the fused
               op's fp16 output overflows (mscompare overflow names both source nodes)
  fine         Conv, Relu, Conv on unit-scale values: fp16 keeps the target cosine
The weights are random (seeded); the input is standard normal (seed 7)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(32)
x = rng.standard_normal((1, 4, 8, 8)).astype(np.float32)
np.save(os.path.join(out, "x.npy"), np.random.default_rng(7).standard_normal((1, 4, 8, 8)).astype(np.float32))


def conv(name, cin, cout, inp, outp, scale, inits, nodes):
    w = (rng.standard_normal((cout, cin, 3, 3)) * scale / np.sqrt(cin * 9)).astype(np.float32)
    b = (rng.standard_normal(cout) * 0.1 * scale).astype(np.float32)
    inits += [numpy_helper.from_array(w, name + ".w"), numpy_helper.from_array(b, name + ".b")]
    nodes.append(helper.make_node("Conv", [inp, name + ".w", name + ".b"], [outp], name=name,
                                  pads=[1, 1, 1, 1]))


def scalar(name, v, inits):
    inits.append(numpy_helper.from_array(np.array(v, dtype=np.float32), name))


def save(name, nodes, inits):
    g = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="asc-tools tests")
    m.ir_version = 7
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


# rms_square
n, i = [], []
conv("conv1", 4, 8, "x", "h", 500.0, i, n)
scalar("eps", 1e-5, i)
n += [helper.make_node("Mul", ["h", "h"], ["sq"], name="square"),
      helper.make_node("ReduceMean", ["sq"], ["ms"], name="mean_sq", axes=[1], keepdims=1),
      helper.make_node("Add", ["ms", "eps"], ["mse"], name="add_eps"),
      helper.make_node("Sqrt", ["mse"], ["rms"], name="rms"),
      helper.make_node("Div", ["h", "rms"], ["hn"], name="normalize")]
conv("conv2", 8, 4, "hn", "y", 1.0, i, n)
save("rms_square", n, i)

# offset_mean
n, i = [], []
conv("conv1", 4, 8, "x", "h", 1.0, i, n)
scalar("offset", 1000.0, i)
n += [helper.make_node("Add", ["h", "offset"], ["a"], name="add_offset"),
      helper.make_node("ReduceMean", ["a"], ["m"], name="mean", axes=[2, 3], keepdims=1),
      helper.make_node("Sub", ["a", "m"], ["c"], name="center")]
conv("conv2", 8, 4, "c", "y", 1.0, i, n)
save("offset_mean", n, i)

# underflow
n, i = [], []
conv("conv1", 4, 8, "x", "h", 1.0, i, n)
scalar("tiny", 1e-7, i)
scalar("huge", 1e7, i)
n += [helper.make_node("Mul", ["h", "tiny"], ["s"], name="scale_down"),
      helper.make_node("Relu", ["s"], ["r"], name="relu"),
      helper.make_node("Mul", ["r", "huge"], ["t"], name="scale_up")]
conv("conv2", 8, 4, "t", "y", 1.0, i, n)
save("underflow", n, i)

# softmax_logits
n, i = [], []
conv("conv1", 4, 8, "x", "h", 2.0, i, n)
scalar("shift", 1000.0, i)
n += [helper.make_node("Add", ["h", "shift"], ["l"], name="shift_logits"),
      helper.make_node("Softmax", ["l"], ["p"], name="softmax", axis=1)]
conv("conv2", 8, 4, "p", "y", 1.0, i, n)
save("softmax_logits", n, i)

# fused_relu
n, i = [], []
conv("conv1", 4, 8, "x", "h", 1e5, i, n)
n.append(helper.make_node("Relu", ["h"], ["r"], name="relu1"))
conv("conv2", 8, 4, "r", "y", 1e-4, i, n)
save("fused_relu", n, i)

# fine
n, i = [], []
conv("conv1", 4, 8, "x", "h", 1.0, i, n)
n.append(helper.make_node("Relu", ["h"], ["r"], name="relu"))
conv("conv2", 8, 4, "r", "y", 1.0, i, n)
save("fine", n, i)
