#!/usr/bin/python3
# gen_data.py N: x, N floats in [0, 1), and the golden y = 0.5 * sum(x) (summed in float64).
import sys
import numpy as np


def gen_golden_data(n):
    x = np.random.uniform(0, 1, [n]).astype(np.float32)
    golden = (np.sum(x.astype(np.float64)) * 0.5).astype(np.float32).reshape([1])
    x.tofile("./input/input_x.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data(int(sys.argv[1]) if len(sys.argv) > 1 else 100000)
