#!/usr/bin/env python3
"""Writes input/input_x.bin (8 x 512 floats, with ties) and the golden top 32 of each block of
512 (values descending, ties in input order, and their indices) for topk_custom (numpy)."""
import os

import numpy as np


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    blocks, length, k = 8, 512, 32
    x = np.round(np.random.default_rng(7).normal(0, 2, blocks * length), 1).astype(np.float32)
    values, indices = [], []
    for b in range(blocks):
        part = x[b * length:(b + 1) * length]
        order = np.argsort(-part, kind="stable")[:k]
        values.append(part[order])
        indices.append((order + b * length).astype(np.uint32))
    x.tofile("input/input_x.bin")
    np.concatenate(values).astype(np.float32).tofile("output/golden_values.bin")
    np.concatenate(indices).astype(np.uint32).tofile("output/golden_indices.bin")


if __name__ == "__main__":
    main()
