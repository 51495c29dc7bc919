#!/usr/bin/python3
# gen_data.py: a [96, 64] and b [64, 80] in float16, and the golden c = a * b in float32.
import numpy as np

M, K, N = 96, 64, 80

a = np.random.uniform(-1, 1, [M, K]).astype(np.float16)
b = np.random.uniform(-1, 1, [K, N]).astype(np.float16)
golden = np.matmul(a.astype(np.float32), b.astype(np.float32)).astype(np.float32)
a.tofile("./input/input_a.bin")
b.tofile("./input/input_b.bin")
golden.tofile("./output/golden.bin")
