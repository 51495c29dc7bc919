#!/usr/bin/env python3
"""verify_result.py: prints "test pass" when the kernel's top-k values and indices equal the
golden ones exactly, else the first mismatches."""
import sys

import numpy as np


def main():
    ok = True
    for name, dtype in (("values", np.float32), ("indices", np.uint32)):
        out = np.fromfile("output/output_%s.bin" % name, dtype=dtype)
        golden = np.fromfile("output/golden_%s.bin" % name, dtype=dtype)
        if out.shape != golden.shape:
            print("[ERROR] %s: output has %d values, golden %d" % (name, out.size, golden.size))
            ok = False
            continue
        bad = np.where(out != golden)[0]
        for i in bad[:10]:
            print("[ERROR] %s index %d: output %s, golden %s" % (name, i, out[i], golden[i]))
        ok = ok and bad.size == 0
    if not ok:
        return 1
    print("test pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
