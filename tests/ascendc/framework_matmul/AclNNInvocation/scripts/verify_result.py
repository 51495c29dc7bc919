#!/usr/bin/python3
# verify_result.py OUTPUT GOLDEN: "test pass" when the float32 results agree to 1e-4 relative
# (sums of 64 products in another order than numpy's).
import sys
import numpy as np


def verify_result(output, golden):
    c = np.fromfile(output, dtype=np.float32)
    g = np.fromfile(golden, dtype=np.float32)
    if c.shape != g.shape or not np.allclose(c, g, rtol=1e-4, atol=1e-4):
        bad = np.argmax(np.abs(c - g)) if c.shape == g.shape else -1
        print("[ERROR] result error at %d: got %s, expected %s" % (bad, c[bad], g[bad]))
        return False
    print("test pass")
    return True


if __name__ == "__main__":
    sys.exit(0 if verify_result(sys.argv[1], sys.argv[2]) else 1)
