#!/usr/bin/python3
"""mscompare_numpy.py MY.npy GOLDEN.npy: the numpy peer of the mscompare benchmark. Computes the
same ten metrics (ascend-facts.md 5.2) in float64 with plain numpy, reading memory-mapped
inputs in blocks of BLOCK elements so it fits in memory; the KLD needs a second pass (min and
max first). Prints the ten values."""
import sys

import numpy as np

EPS = np.finfo(float).eps
EPS32 = np.finfo(np.float32).eps
BLOCK = 1 << 22


def main():
    x_all = np.load(sys.argv[1], mmap_mode="r")
    y_all = np.load(sys.argv[2], mmap_mode="r")
    n = x_all.size
    xf, yf = x_all.reshape(-1), y_all.reshape(-1)
    s = dict(xy=0.0, xx=0.0, yy=0.0, dd=0.0, abs=0.0, rel=0.0, sx=0.0, sy=0.0)
    mx_abs = mx_rel = 0.0
    mins = [np.inf, np.inf]
    maxs = [-np.inf, -np.inf]
    with np.errstate(all="ignore"):
        for b in range(0, n, BLOCK):
            x = xf[b:b + BLOCK].astype(np.float64)
            y = yf[b:b + BLOCK].astype(np.float64)
            d = x - y
            ad = np.abs(d)
            rel = np.where(np.abs(y) > EPS, np.abs(x / y - 1), 0.0)
            s["xy"] += np.dot(x, y)
            s["xx"] += np.dot(x, x)
            s["yy"] += np.dot(y, y)
            s["dd"] += np.dot(d, d)
            s["abs"] += ad.sum()
            s["rel"] += rel.sum()
            s["sx"] += x.sum()
            s["sy"] += y.sum()
            mx_abs = max(mx_abs, ad.max())
            mx_rel = max(mx_rel, rel.max())
            mins = [min(mins[0], x.min()), min(mins[1], y.min())]
            maxs = [max(maxs[0], x.max()), max(maxs[1], y.max())]
        spx = spy = t = 0.0
        for b in range(0, n, BLOCK):
            x = xf[b:b + BLOCK].astype(np.float64)
            y = yf[b:b + BLOCK].astype(np.float64)
            px = np.maximum((x - mins[0]) / (maxs[0] - mins[0]), EPS32)
            py = np.maximum((y - mins[1]) / (maxs[1] - mins[1]), EPS32)
            spx += px.sum()
            spy += py.sum()
            t += np.dot(px, np.log(px / py))
    mean_x, mean_y = s["sx"] / n, s["sy"] / n
    cos = min(s["xy"] / (np.sqrt(s["xx"]) * np.sqrt(s["yy"])), 1.0)
    kld = t / spx + np.log(spy / spx)
    out = [cos, mx_abs, s["rel"], np.sqrt(s["dd"] / s["yy"]), kld,
           "(%.3f;%.3f),(%.3f;%.3f)" % (mean_x, np.sqrt(max(s["xx"] / n - mean_x ** 2, 0)),
                                        mean_y, np.sqrt(max(s["yy"] / n - mean_y ** 2, 0))),
           s["abs"] / n, np.sqrt(s["dd"] / n), mx_rel, s["rel"] / n]
    print(",".join(v if isinstance(v, str) else "{:.6f}".format(v) for v in out))


if __name__ == "__main__":
    main()
