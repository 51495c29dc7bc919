#!/usr/bin/python3
# verify_result.py OUTPUT GOLDEN fp16|fp32: "test pass" when every element agrees to the dtype's
# tolerance (fp32: 1e-5 relative; fp16: one part in 1e3, the kernel rounding once to half).
import sys
import numpy as np


def verify(output, golden, dtype):
    t = np.float16 if dtype == "fp16" else np.float32
    y = np.fromfile(output, dtype=t).astype(np.float64)
    g = np.fromfile(golden, dtype=t).astype(np.float64)
    tol = (1e-3, 1e-4) if dtype == "fp16" else (1e-5, 1e-7)
    if y.shape != g.shape or not np.allclose(y, g, rtol=tol[0], atol=tol[1]):
        bad = np.argmax(np.abs(y - g)) if y.shape == g.shape else -1
        print("[ERROR] result error: worst at %d" % bad)
        return False
    print("test pass")
    return True


if __name__ == "__main__":
    sys.exit(0 if verify(sys.argv[1], sys.argv[2], sys.argv[3]) else 1)
