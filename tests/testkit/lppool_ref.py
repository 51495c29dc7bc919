#!/usr/bin/python3
"""lppool_ref.py X.bin OUT.bin P KH,KW SH,SW DH,DW PT,PL,PB,PR CEIL: checks an asc-tools LpPool
output over x [1, 2, 6, 4] against a loop over the ONNX definition: the output size per dim is
(in + pads - ((k - 1) * d + 1)) / s + 1, rounded up with ceil_mode (a window must start inside
the input or its begin padding), and each output is (sum of |x|^p over the taps inside the
input)^(1/p), padding counting as zeros. Prints "close" or how far it is."""
import math
import sys

import numpy as np

x = np.fromfile(sys.argv[1], np.float32).astype(np.float64).reshape(1, 2, 6, 4)
p = int(sys.argv[3])
k, s, d = ([int(v) for v in a.split(",")] for a in sys.argv[4:7])
pads = [int(v) for v in sys.argv[7].split(",")]
ceil = sys.argv[8] == "1"


def out_dim(n, i):
    span = n + pads[i] + pads[i + 2] - ((k[i] - 1) * d[i] + 1)
    o = (math.ceil(span / s[i]) if ceil else span // s[i]) + 1
    if ceil and (o - 1) * s[i] >= n + pads[i]:
        o -= 1
    return o


oh, ow = out_dim(6, 0), out_dim(4, 1)
want = np.zeros((1, 2, oh, ow))
for c in range(2):
    for i in range(oh):
        for j in range(ow):
            acc = 0.0
            for a in range(k[0]):
                for b in range(k[1]):
                    r, q = i * s[0] - pads[0] + a * d[0], j * s[1] - pads[1] + b * d[1]
                    if 0 <= r < 6 and 0 <= q < 4:
                        acc += abs(x[0, c, r, q]) ** p
            want[0, c, i, j] = acc ** (1 / p)
got = np.fromfile(sys.argv[2], np.float32)
if got.size != want.size:
    print("size %d, expected %s" % (got.size, want.shape))
else:
    got = got.reshape(want.shape)
    print("close" if np.allclose(got, want, rtol=1e-5, atol=1e-5) else "differs %g" % np.abs(got - want).max())
