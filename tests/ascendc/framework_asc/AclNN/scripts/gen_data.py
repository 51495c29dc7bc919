#!/usr/bin/python3
# gen_data.py ROWS COLS fp16|fp32: x uniform in [-4, 4) of the dtype, and the golden softmax of
# each row, computed in float64 from x as the dtype holds it.
import sys
import numpy as np


def gen(rows, cols, dtype):
    t = np.float16 if dtype == "fp16" else np.float32
    x = np.random.uniform(-4, 4, [rows, cols]).astype(t)
    e = np.exp(x.astype(np.float64) - x.astype(np.float64).max(axis=1, keepdims=True))
    golden = (e / e.sum(axis=1, keepdims=True)).astype(t)
    x.tofile("./input/input_x.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])
