#!/usr/bin/env python3
"""Writes input/input_x.bin and output/golden.bin for leaky_relu_custom (numpy)."""
import os

import numpy as np


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.default_rng(3).uniform(-4, 4, 8 * 2048).astype(np.float32)
    golden = np.where(x >= 0, x, x * np.float32(0.1)).astype(np.float32)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
