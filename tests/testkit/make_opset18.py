#!/usr/bin/python3
"""make_opset18.py ONNX_PROTO OUT_DIR: writes opset-18 ONNX models in the forms ONNX 1.13 gave
these operators (written as protobuf text and encoded with protoc: Debian's onnx 1.12 stops at
opset 17), their input x.bin and the expected outputs expect_<model>_<i>.bin from numpy formulas
of the ONNX spec, for tests/cli/atc/opset18.sh:
  reduce   ReduceMean-18 (axes an input), ReduceSumSquare-18 (keepdims 0), ReduceMax-18 with empty
           axes and noop_with_empty_axes=1 (the identity), ReduceL2-18 with no axes (all)
  split    Split-18 with num_outputs=3 over a dim of 7 (chunks 3, 3, 1)
  pad      Pad-18 with axes (pads for axis 3 only), and reflect mode on axis -2
  resize   Resize-18 with axes [2, 3], sizes and keep_aspect_ratio_policy not_larger (nearest)
  scatter  ScatterElements-18 with reduction max
Every model takes x [1, 2, 7, 4] float32."""
import os
import subprocess
import sys

import numpy as np

proto, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(18)
x = rng.standard_normal((1, 2, 7, 4)).astype(np.float32)
x.tofile(os.path.join(out, "x.bin"))


def ints(name, vals):
    return 'initializer { name: "%s" data_type: 7 dims: %d %s }' % (
        name, len(vals), " ".join("int64_data: %d" % v for v in vals))


def tensor_io(kind, name, dims, elem=1):
    return '%s { name: "%s" type { tensor_type { elem_type: %d shape { %s } } } }' % (
        kind, name, elem, " ".join("dim { dim_value: %d }" % d for d in dims))


def model(name, body, outputs):
    text = "\n".join(["ir_version: 8", 'opset_import { domain: "" version: 18 }',
                      'graph { name: "%s"' % name] + body +
                     [tensor_io("input", "x", x.shape)] +
                     [tensor_io("output", n, s.shape) for n, s in outputs] + ["}"])
    enc = subprocess.run(["protoc", "--encode=onnx.ModelProto", "-I" + os.path.dirname(proto),
                          proto], input=text.encode(), stdout=subprocess.PIPE, check=True).stdout
    open(os.path.join(out, name + ".onnx"), "wb").write(enc)
    for i, (_, v) in enumerate(outputs):
        np.ascontiguousarray(v, dtype=np.float32).tofile(
            os.path.join(out, "expect_%s_%d.bin" % (name, i)))


# reduce
model("reduce", [
    'node { op_type: "ReduceMean" name: "mean" input: "x" input: "ax" output: "m" }',
    'node { op_type: "ReduceSumSquare" name: "ss" input: "x" input: "ax2" output: "s" '
    'attribute { name: "keepdims" type: INT i: 0 } }',
    'node { op_type: "ReduceMax" name: "same" input: "x" input: "none" output: "i" '
    'attribute { name: "noop_with_empty_axes" type: INT i: 1 } }',
    'node { op_type: "ReduceL2" name: "l2" input: "x" output: "l" }',
    ints("ax", [-1, 1]), ints("ax2", [2]),
    'initializer { name: "none" data_type: 7 dims: 0 }',
], [("m", x.mean(axis=(1, 3), keepdims=True)), ("s", (x * x).sum(axis=2)), ("i", x),
    ("l", np.sqrt((x.astype(np.float64) ** 2).sum()).reshape(1, 1, 1, 1))])

# split
model("split", [
    'node { op_type: "Split" name: "split" input: "x" output: "a" output: "b" output: "c" '
    'attribute { name: "axis" type: INT i: 2 } attribute { name: "num_outputs" type: INT i: 3 } }',
], [("a", x[:, :, 0:3]), ("b", x[:, :, 3:6]), ("c", x[:, :, 6:7])])

# pad
pad_w = np.pad(x, ((0, 0), (0, 0), (0, 0), (1, 2)), constant_values=0.5)
pad_h = np.pad(x, ((0, 0), (0, 0), (2, 1), (0, 0)), mode="reflect")
model("pad", [
    'node { op_type: "Pad" name: "pw" input: "x" input: "pads_w" input: "cv" input: "axes_w" '
    'output: "w" }',
    'node { op_type: "Pad" name: "ph" input: "x" input: "pads_h" input: "" input: "axes_h" '
    'output: "h" attribute { name: "mode" type: STRING s: "reflect" } }',
    ints("pads_w", [1, 2]), ints("axes_w", [3]), ints("pads_h", [2, 1]), ints("axes_h", [-2]),
    'initializer { name: "cv" data_type: 1 float_data: 0.5 }',
], [("w", pad_w), ("h", pad_h)])

# resize: sizes [14, 12] on (H, W) = (7, 4) with not_larger: scale min(14/7, 12/4) = 2 ->
# output [14, 8]; nearest with the defaults (half_pixel, round_prefer_floor): index
# floor-ish of (o + 0.5) / 2 - 0.5 rounded half down = o // 2 for a scale of 2.
res = x.repeat(2, axis=2).repeat(2, axis=3)
model("resize", [
    'node { op_type: "Resize" name: "resize" input: "x" input: "" input: "" input: "sizes" '
    'output: "r" attribute { name: "axes" type: INTS ints: 2 ints: 3 } '
    'attribute { name: "keep_aspect_ratio_policy" type: STRING s: "not_larger" } }',
    ints("sizes", [14, 12]),
], [("r", res)])

# scatter: max of x's values and updates at indices along axis 3
idx = np.array([[[[3, 0]] * 7] * 2], dtype=np.int64)           # [1, 2, 7, 2]
upd = np.full((1, 2, 7, 2), 0.25, dtype=np.float32)
sc = x.copy()
for n in range(1):
    for c in range(2):
        for h in range(7):
            for j in range(2):
                w = idx[n, c, h, j]
                sc[n, c, h, w] = max(sc[n, c, h, w], upd[n, c, h, j])
model("scatter", [
    'node { op_type: "ScatterElements" name: "scatter" input: "x" input: "idx" input: "upd" '
    'output: "s" attribute { name: "axis" type: INT i: 3 } '
    'attribute { name: "reduction" type: STRING s: "max" } }',
    'initializer { name: "idx" data_type: 7 dims: 1 dims: 2 dims: 7 dims: 2 %s }' % " ".join(
        "int64_data: %d" % v for v in idx.reshape(-1)),
    'initializer { name: "upd" data_type: 1 dims: 1 dims: 2 dims: 7 dims: 2 %s }' % " ".join(
        "float_data: %r" % float(v) for v in upd.reshape(-1)),
], [("s", sc)])

# layernorm: the decomposed LayerNorm an exporter writes, at opset 18 its ReduceMeans taking
# axes as an input; the fusion pass makes it one LayerNorm.
gamma = rng.standard_normal(4).astype(np.float32)
beta = rng.standard_normal(4).astype(np.float32)
mu = x.mean(axis=-1, keepdims=True)
var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
ln = (x - mu) / np.sqrt(var + 1e-5) * gamma + beta
model("layernorm", [
    'node { op_type: "ReduceMean" name: "mu" input: "x" input: "last" output: "m" }',
    'node { op_type: "Sub" name: "d" input: "x" input: "m" output: "dx" }',
    'node { op_type: "Pow" name: "sq" input: "dx" input: "two" output: "d2" }',
    'node { op_type: "ReduceMean" name: "var" input: "d2" input: "last" output: "v" }',
    'node { op_type: "Add" name: "veps" input: "v" input: "eps" output: "ve" }',
    'node { op_type: "Sqrt" name: "std" input: "ve" output: "sd" }',
    'node { op_type: "Div" name: "norm" input: "dx" input: "sd" output: "n" }',
    'node { op_type: "Mul" name: "scale" input: "n" input: "gamma" output: "g" }',
    'node { op_type: "Add" name: "shift" input: "g" input: "beta" output: "y" }',
    ints("last", [-1]),
    'initializer { name: "two" data_type: 1 float_data: 2 }',
    'initializer { name: "eps" data_type: 1 float_data: 1e-05 }',
    'initializer { name: "gamma" data_type: 1 dims: 4 %s }' % " ".join(
        "float_data: %r" % float(v) for v in gamma),
    'initializer { name: "beta" data_type: 1 dims: 4 %s }' % " ".join(
        "float_data: %r" % float(v) for v in beta),
], [("y", ln)])

# mish: an op new in opset 18
model("mish", [
    'node { op_type: "Mish" name: "mish" input: "x" output: "y" }',
], [("y", x * np.tanh(np.log1p(np.exp(x.astype(np.float64)))))])

# groupnorm: GroupNormalization-18, one group of both channels (scale and bias per group)
xg = x.astype(np.float64)
mu1 = xg.mean(axis=(1, 2, 3), keepdims=True)
var1 = xg.var(axis=(1, 2, 3), keepdims=True)
gn1 = (xg - mu1) / np.sqrt(var1 + 1e-3) * 1.5 - 0.25
mu2 = xg.mean(axis=(2, 3), keepdims=True)
var2 = xg.var(axis=(2, 3), keepdims=True)
gn2 = (xg - mu2) / np.sqrt(var2 + 1e-5) * np.array([2.0, 0.5]).reshape(1, 2, 1, 1) + \
    np.array([0.0, 1.0]).reshape(1, 2, 1, 1)
model("groupnorm", [
    'node { op_type: "GroupNormalization" name: "gn1" input: "x" input: "s1" input: "b1" '
    'output: "y1" attribute { name: "num_groups" type: INT i: 1 } '
    'attribute { name: "epsilon" type: FLOAT f: 0.001 } }',
    'node { op_type: "GroupNormalization" name: "gn2" input: "x" input: "s2" input: "b2" '
    'output: "y2" attribute { name: "num_groups" type: INT i: 2 } }',
    'initializer { name: "s1" data_type: 1 dims: 1 float_data: 1.5 }',
    'initializer { name: "b1" data_type: 1 dims: 1 float_data: -0.25 }',
    'initializer { name: "s2" data_type: 1 dims: 2 float_data: [2, 0.5] }',
    'initializer { name: "b2" data_type: 1 dims: 2 float_data: [0, 1] }',
], [("y1", gn1), ("y2", gn2)])
