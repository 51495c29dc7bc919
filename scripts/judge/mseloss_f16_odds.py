#!/usr/bin/python3
"""mseloss_f16_odds.py [SEEDS]: how often hansheng1001/AscendCContest's `-f16` KernelLaunch
sample (the MseLoss sample its twelve `MseLossKernelInvocation-f16` folders copy) passes its own
check on any toolkit that computes exactly what its code says, on the random inputs its
gen_data.py draws.

The sample, read from its files: x, y ~ U(0, 1) as fp16, shape [8, 2048]; 8 blocks of 16 tiles
of 128 elements; per tile Sub, Mul and ReduceSum in fp16 (one 256-byte repeat: a tree of adjacent
pairs, each add rounded to fp16); then main.cpp adds the 128 tile sums one after another in a
host `half`, each add rounded to fp16, and writes that one value. The golden is
torch.nn.MSELoss(reduction="sum") on the fp16 tensors (numpy's float64 sum rounded to fp16 when
torch is missing). verify_result.py passes when |out - golden| <= 1e-3 or the relative
difference <= 1e-3.

Prints the pass rate three ways: the sample's arithmetic; with exact tile sums (what the tile
reduction's order can change); with an exact host sum (what the host loop costs). Needs numpy.
"""
import sys

import numpy as np

try:
    import torch
except ImportError:  # the golden then comes from numpy
    torch = None


def tree_sum_f16(v):
    v = v.astype(np.float16)
    while len(v) > 1:
        v = (v[0::2] + v[1::2]).astype(np.float16)
    return v[0]


def host_sum_f16(parts):
    acc = np.float16(0)
    for p in parts:
        acc = np.float16(acc + np.float16(p))
    return float(acc)


def golden_of(x, y):
    if torch is not None:
        return float(torch.nn.MSELoss(reduction="sum")(torch.from_numpy(x), torch.from_numpy(y)))
    d = x.astype(np.float64) - y.astype(np.float64)
    return float(np.float16((d * d).sum()))


def passes(out, golden):
    diff = abs(out - golden)
    return diff <= 1e-3 or diff / max(abs(out), abs(golden), 1e-9) <= 1e-3


def main():
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    counts = {"sample": 0, "exact tiles": 0, "exact host sum": 0}
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        x = rng.uniform(0, 1, [8, 2048]).astype(np.float16)
        y = rng.uniform(0, 1, [8, 2048]).astype(np.float16)
        golden = golden_of(x, y)
        d = (x - y).astype(np.float16)
        tiles = (d * d).astype(np.float16).reshape(-1, 128)
        tree = [tree_sum_f16(t) for t in tiles]
        counts["sample"] += passes(host_sum_f16(tree), golden)
        counts["exact tiles"] += passes(
            host_sum_f16([t.astype(np.float64).sum() for t in tiles]), golden)
        counts["exact host sum"] += passes(
            float(np.float16(sum(float(t) for t in tree))), golden)
    print(f"golden: {'torch' if torch is not None else 'numpy (torch missing)'}; {seeds} seeds")
    for k, v in counts.items():
        print(f"{k:16s} passes {v} of {seeds} ({100.0 * v / seeds:.0f} %)")


if __name__ == "__main__":
    main()
