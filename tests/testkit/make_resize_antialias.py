#!/usr/bin/python3
"""make_resize_antialias.py ONNX_PROTO OUT_DIR: Resize-18 models with antialias=1 on
x [1, 2, 9, 11] (aa.onnx, outputs y0..yN-1, one node per case below) and the expected outputs
expect_aa_<i>.bin from a numpy formula of ONNX's definition: along each resized axis, an output
at source coordinate x (the node's coordinate_transformation_mode) is the normalized sum of
f((j - x) * s) * in[j] over the input indices j of the filter's window, with s = min(scale, 1)
(the filter is stretched by 1 / s when downscaling) and f the triangle (linear) or the cubic
kernel with A = cubic_coeff_a; the window holds the n = 2 * ceil(support / s) indices nearest to
x (ties to the smaller), indices off the input read the edge value, or with exclude_outside=1
have their weights dropped and the rest renormalized. Also x.bin / x.npy. Encoded with protoc:
Debian's onnx 1.12 stops at opset 17."""
import math
import os
import subprocess
import sys

import numpy as np

proto, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(18)
x = rng.standard_normal((1, 2, 9, 11)).astype(np.float32)
x.tofile(os.path.join(out, "x.bin"))
np.save(os.path.join(out, "x.npy"), x)


def source(mode, o, scale, n_in, n_out):
    length = n_in * scale
    if mode == "half_pixel":
        return (o + 0.5) / scale - 0.5
    if mode == "pytorch_half_pixel":
        return (o + 0.5) / scale - 0.5 if n_out > 1 else 0.0
    if mode == "align_corners":
        return 0.0 if n_out == 1 else o * (n_in - 1) / (n_out - 1)
    if mode == "half_pixel_symmetric":
        adj = n_out / length
        return n_in / 2 * (1 - adj) + (o + 0.5) / scale - 0.5
    return o / scale  # asymmetric


def cubic(t, a):
    t = abs(t)
    if t <= 1:
        return ((a + 2) * t - (a + 3)) * t * t + 1
    if t < 2:
        return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return 0.0


def weights(n_in, n_out, scale, mode, interp, a, exclude):
    """[n_out, n_in] matrix of one axis."""
    s = min(scale, 1.0)
    support = 1 if interp == "linear" else 2
    f = (lambda t: max(0.0, 1 - abs(t))) if interp == "linear" else (lambda t: cubic(t, a))
    start = math.floor(-support / s) + 1  # the window's first offset from the left neighbour
    n = 2 * (support - start)             # window size: 2 - 2 * start (linear), 4 - 2 * start
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        xs = source(mode, o, scale, n_in, n_out)
        left = math.ceil(xs) - 1 if xs == math.floor(xs) else math.floor(xs)
        js = [left + start + k for k in range(n)]
        w = np.array([f((j - xs) * s) for j in js])
        w /= w.sum()
        if exclude:
            w = np.array([wi if 0 <= j < n_in else 0.0 for j, wi in zip(js, w)])
            w /= w.sum()
        for j, wi in zip(js, w):
            m[o, min(max(j, 0), n_in - 1)] += wi
    return m


# (interp, coordinate mode, scales or None, sizes or None, exclude_outside, cubic_coeff_a)
cases = [
    ("linear", "half_pixel", [1, 1, 0.5, 0.6], None, 0, -0.75),
    ("cubic", "half_pixel", [1, 1, 0.5, 0.6], None, 0, -0.75),
    ("linear", "half_pixel", None, [1, 2, 4, 5], 0, -0.75),
    ("cubic", "half_pixel", None, [1, 2, 4, 5], 0, -0.5),
    ("linear", "half_pixel", [1, 1, 1.5, 0.4], None, 0, -0.75),   # up one axis, down the other
    ("cubic", "half_pixel", [1, 1, 0.7, 2.0], None, 1, -0.75),    # exclude_outside
    ("linear", "pytorch_half_pixel", [1, 1, 0.3, 0.5], None, 0, -0.75),
    ("linear", "align_corners", None, [1, 2, 3, 4], 0, -0.75),
    ("cubic", "asymmetric", [1, 1, 0.5, 0.5], None, 0, -0.75),
    ("linear", "half_pixel", [1, 1, 2.0, 1.5], None, 0, -0.75),   # no downscale: plain linear
]


def expected(interp, mode, scales, sizes, exclude, a):
    if sizes is None:
        sizes = [int(math.floor(d * s)) for d, s in zip(x.shape, scales)]
        sc = scales
    else:
        sc = [o / i for o, i in zip(sizes, x.shape)]
    y = x.astype(np.float64)
    for axis in (2, 3):
        m = weights(x.shape[axis], sizes[axis], sc[axis], mode, interp, a, exclude)
        y = np.moveaxis(np.tensordot(m, np.moveaxis(y, axis, 0), axes=1), 0, axis)
    return y.astype(np.float32)


nodes, outs, inits = [], [], []
for k, (interp, mode, scales, sizes, exclude, a) in enumerate(cases):
    want = expected(interp, mode, scales, sizes, exclude, a)
    want.tofile(os.path.join(out, "expect_aa_%d.bin" % k))
    if scales is not None:
        inits.append('initializer { name: "s%d" data_type: 1 dims: 4 %s }'
                     % (k, " ".join("float_data: %r" % float(v) for v in scales)))
        ins = 'input: "x" input: "" input: "s%d"' % k
    else:
        inits.append('initializer { name: "z%d" data_type: 7 dims: 4 %s }'
                     % (k, " ".join("int64_data: %d" % v for v in sizes)))
        ins = 'input: "x" input: "" input: "" input: "z%d"' % k
    nodes.append('node { op_type: "Resize" name: "rs%d" %s output: "y%d" '
                 'attribute { name: "mode" type: STRING s: "%s" } '
                 'attribute { name: "coordinate_transformation_mode" type: STRING s: "%s" } '
                 'attribute { name: "antialias" type: INT i: 1 } '
                 'attribute { name: "exclude_outside" type: INT i: %d } '
                 'attribute { name: "cubic_coeff_a" type: FLOAT f: %r } }'
                 % (k, ins, k, interp, mode, exclude, a))
    outs.append('output { name: "y%d" type { tensor_type { elem_type: 1 shape { %s } } } }'
                % (k, " ".join("dim { dim_value: %d }" % s for s in want.shape)))
text = "\n".join(
    ["ir_version: 8", 'opset_import { domain: "" version: 18 }', 'graph { name: "aa"'] + nodes +
    inits + ['input { name: "x" type { tensor_type { elem_type: 1 shape { %s } } } }'
             % " ".join("dim { dim_value: %d }" % s for s in x.shape)] + outs + ["}"])
enc = subprocess.run(["protoc", "--encode=onnx.ModelProto", "-I" + os.path.dirname(proto), proto],
                     input=text.encode(), stdout=subprocess.PIPE, check=True).stdout
open(os.path.join(out, "aa.onnx"), "wb").write(enc)
print(len(cases))
