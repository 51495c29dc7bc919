#!/usr/bin/env python3
"""Writes input/x1_gm.bin (A, half [96, 64]), input/x2_gm.bin (B, half [64, 160]) and
output/golden.bin (A @ B, float) for matmul_cann7."""
import os

import numpy as np


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(7)
    m, n, k = 96, 160, 64
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    golden = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    a.tofile("input/x1_gm.bin")
    b.tofile("input/x2_gm.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
