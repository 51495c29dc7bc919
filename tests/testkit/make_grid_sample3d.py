#!/usr/bin/python3
"""make_grid_sample3d.py ONNX_PROTO OUT_DIR: a GridSample-20 model on a volume x [1, 2, 3, 4, 5]
with a constant grid [1, 2, 3, 4, 3] of (x, y, z) points inside and outside [-1, 1], one node per
mode x padding_mode (zeros, border, reflection) x align_corners (0, 1): gs3d.onnx for linear and
nearest (outputs y0..y11 in that order), gs3dc.onnx for cubic (y0..y5); the expected outputs
expect_<model>_<i>.bin come from a numpy loop over
ONNX's definition (unnormalize, pad, then per-dim taps: nearest rounds half to even, linear 2
and cubic 4 per dim with A = -0.75; taps outside read 0, cubic pads each tap's index), and the
input x.bin / x.npy. Encoded with protoc: Debian's onnx 1.12 stops at opset 17."""
import itertools
import os
import subprocess
import sys

import numpy as np

proto, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(20)
x = rng.standard_normal((1, 2, 3, 4, 5)).astype(np.float32)
grid = rng.uniform(-1.3, 1.3, (1, 2, 3, 4, 3)).astype(np.float32)
grid[0, 0, 0, 0] = [-1, -1, -1]
grid[0, 0, 0, 1] = [1, 1, 1]
grid[0, 1, 2, 3] = [0, 0, 0]
x.tofile(os.path.join(out, "x.bin"))
np.save(os.path.join(out, "x.npy"), x)


def unnormalize(c, size, align):
    return (c + 1) / 2 * (size - 1) if align else ((c + 1) * size - 1) / 2


def reflect(v, lo, hi):
    span = hi - lo
    if span <= 0:
        return lo
    d = abs(v - lo)
    flips = np.floor(d / span)
    r = d - flips * span
    return lo + r if int(flips) % 2 == 0 else hi - r


def pad(v, size, mode, align):
    if mode == "border":
        return min(max(v, 0.0), size - 1.0)
    if mode == "reflection":
        v = reflect(v, 0.0, size - 1.0) if align else reflect(v, -0.5, size - 0.5)
        return min(max(v, 0.0), size - 1.0)
    return v


def cubic(t):
    a = -0.75
    near = lambda d: ((a + 2) * d - (a + 3)) * d * d + 1
    far = lambda d: ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def taps(v, size, mode, padding, align):
    """(index or None, weight) pairs along one dim."""
    inside = lambda i: i if 0 <= i < size else None
    if mode != "cubic":
        v = pad(v, size, padding, align)
    if mode == "nearest":
        return [(inside(int(np.rint(v))), 1.0)]
    f = np.floor(v)
    t = v - f
    i0 = int(f)
    if mode == "linear":
        return [(inside(i0), 1 - t), (inside(i0 + 1), t)]
    out = []
    for k, w in enumerate(cubic(t)):
        i = i0 - 1 + k
        if padding != "zeros":
            i = int(pad(float(i), size, padding, align))
        out.append((inside(i), w))
    return out


def grid_sample(img, g, mode, padding, align):
    n, c, d, h, w = img.shape
    res = np.zeros((n, c) + g.shape[1:4], dtype=np.float64)
    for b in range(n):
        for idx in itertools.product(*[range(s) for s in g.shape[1:4]]):
            px, py, pz = (float(v) for v in g[(b,) + idx])
            tz = taps(unnormalize(pz, d, align), d, mode, padding, align)
            ty = taps(unnormalize(py, h, align), h, mode, padding, align)
            tx = taps(unnormalize(px, w, align), w, mode, padding, align)
            for (zi, zw), (yi, yw), (xi, xw) in itertools.product(tz, ty, tx):
                if zi is None or yi is None or xi is None:
                    continue
                res[(b, slice(None)) + idx] += zw * yw * xw * img[b, :, zi, yi, xi]
    return res.astype(np.float32)


cases = list(itertools.product(["linear", "nearest", "cubic"], ["zeros", "border", "reflection"],
                               [0, 1]))


def write(name, chosen):
    nodes, outs = [], []
    for k, (mode, padding, align) in enumerate(chosen):
        nodes.append('node { op_type: "GridSample" name: "gs%d" input: "x" input: "grid" '
                     'output: "y%d" attribute { name: "mode" type: STRING s: "%s" } '
                     'attribute { name: "padding_mode" type: STRING s: "%s" } '
                     'attribute { name: "align_corners" type: INT i: %d } }'
                     % (k, k, mode, padding, align))
        want = grid_sample(x, grid, mode, padding, align)
        want.tofile(os.path.join(out, "expect_%s_%d.bin" % (name, k)))
        outs.append('output { name: "y%d" type { tensor_type { elem_type: 1 shape { %s } } } }'
                    % (k, " ".join("dim { dim_value: %d }" % s for s in want.shape)))
    text = "\n".join(
        ["ir_version: 9", 'opset_import { domain: "" version: 20 }', 'graph { name: "%s"' % name] +
        nodes +
        ['initializer { name: "grid" data_type: 1 %s %s }' % (
            " ".join("dims: %d" % s for s in grid.shape),
            " ".join("float_data: %r" % float(v) for v in grid.ravel())),
         'input { name: "x" type { tensor_type { elem_type: 1 shape { %s } } } }'
         % " ".join("dim { dim_value: %d }" % s for s in x.shape)] + outs + ["}"])
    enc = subprocess.run(["protoc", "--encode=onnx.ModelProto", "-I" + os.path.dirname(proto),
                          proto], input=text.encode(), stdout=subprocess.PIPE, check=True).stdout
    open(os.path.join(out, name + ".onnx"), "wb").write(enc)


write("gs3d", [c for c in cases if c[0] != "cubic"])  # ONNX Runtime 1.20.1 runs these
write("gs3dc", [c for c in cases if c[0] == "cubic"])  # ... but no cubic on volumes
