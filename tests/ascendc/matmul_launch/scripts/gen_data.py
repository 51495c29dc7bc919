#!/usr/bin/env python3
"""Writes input/x1_gm.bin (A, half [200, 96]), input/x2_gm.bin (B, half [96, 136]),
input/bias.bin (float [136]) and output/golden.bin (A @ B + bias, float) for matmul_custom."""
import os

import numpy as np


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(5)
    m, n, k = 200, 136, 96
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    bias = rng.uniform(-1, 1, n).astype(np.float32)
    golden = (a.astype(np.float64) @ b.astype(np.float64) + bias).astype(np.float32)
    a.tofile("input/x1_gm.bin")
    b.tofile("input/x2_gm.bin")
    bias.tofile("input/bias.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
