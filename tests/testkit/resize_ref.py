#!/usr/bin/python3
"""resize_ref.py X.bin OUT.bin MODE SCALE_H SCALE_W: checks an asc-tools Resize output (linear,
scales given for the last two dims of x [1, 2, 6, 4]) against a numpy formula of the ONNX spec:
per dim, out = floor(in * scale) positions, each at
  half_pixel:           (o + 0.5) / scale - 0.5
  half_pixel_symmetric: in / 2 * (1 - out / (in * scale)) + (o + 0.5) / scale - 0.5
clamped to [0, in - 1] and interpolated linearly between its two neighbours. Prints "close" or
how far it is."""
import sys

import numpy as np


def linear(x, axis, scale, mode):
    n = x.shape[axis]
    m = int(np.floor(n * scale))
    offset = n / 2 * (1 - m / (n * scale)) if mode == "half_pixel_symmetric" else 0.0
    src = np.clip(offset + (np.arange(m) + 0.5) / scale - 0.5, 0, n - 1)
    i0 = np.floor(src).astype(int)
    i1 = np.minimum(i0 + 1, n - 1)
    shape = [1] * x.ndim
    shape[axis] = -1
    w = (src - i0).reshape(shape)
    return np.take(x, i0, axis) * (1 - w) + np.take(x, i1, axis) * w


x = np.fromfile(sys.argv[1], np.float32).astype(np.float64).reshape(1, 2, 6, 4)
mode = sys.argv[3]
want = linear(linear(x, 2, float(sys.argv[4]), mode), 3, float(sys.argv[5]), mode)
got = np.fromfile(sys.argv[2], np.float32).reshape(want.shape)
print("close" if np.allclose(got, want, rtol=1e-5, atol=1e-5) else "differs %g" % np.abs(got - want).max())
