#!/usr/bin/env python3
"""verify_result.py OUTPUT GOLDEN: prints "test pass" when they agree, else the first mismatches."""
import sys

import numpy as np


def main():
    out = np.fromfile(sys.argv[1], dtype=np.float32)
    golden = np.fromfile(sys.argv[2], dtype=np.float32)
    if out.shape != golden.shape:
        print("[ERROR] output has %d values, golden %d" % (out.size, golden.size))
        return 1
    bad = np.where(~np.isclose(out, golden, rtol=1e-5, atol=1e-4))[0]
    for i in bad[:10]:
        print("[ERROR] index %d: output %f, golden %f" % (i, out[i], golden[i]))
    if bad.size:
        print("[ERROR] %d of %d values differ" % (bad.size, out.size))
        return 1
    print("test pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
