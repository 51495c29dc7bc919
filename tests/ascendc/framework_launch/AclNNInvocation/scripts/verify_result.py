#!/usr/bin/python3
# verify_result.py OUTPUT GOLDEN: "test pass" when the float32 results agree to 1e-4 relative
# (a float32 sum of 1e5 terms in another order than numpy's).
import sys
import numpy as np


def verify_result(output, golden):
    y = np.fromfile(output, dtype=np.float32)
    g = np.fromfile(golden, dtype=np.float32)
    if y.shape != g.shape or not np.allclose(y, g, rtol=1e-4, atol=1e-5):
        print("[ERROR] result error: got %s, expected %s" % (y, g))
        return False
    print("test pass")
    return True


if __name__ == "__main__":
    sys.exit(0 if verify_result(sys.argv[1], sys.argv[2]) else 1)
