#!/usr/bin/python3
"""mscompare_reference.py WORKDIR: checks every mscompare metric against a plain float64 numpy
computation of the formulas in ascend-facts.md 5.2, on random tensors and edge cases (all
zeros, one zero side, scalars, NaN/Inf, int, bool, fp16, fp64, big-endian, Fortran order).
Runs `mscompare` from PATH on each pair and compares its CSV cells to the printed precision.
Exit 0 when all agree; prints every disagreement otherwise."""
import csv
import json
import os
import subprocess
import sys

import numpy as np

EPS = np.finfo(float).eps
EPS32 = np.finfo(np.float32).eps
NAMES = ["CosineSimilarity", "MaxAbsoluteError", "AccumulatedRelativeError",
         "RelativeEuclideanDistance", "KullbackLeiblerDivergence", "StandardDeviation",
         "MeanAbsoluteError", "RootMeanSquareError", "MaxRelativeError", "MeanRelativeError"]


def f6(v):
    return "NaN" if np.isnan(v) else "{:.6f}".format(v)


def f3(v):
    return "0.000" if abs(v) < 0.001 else "%.3f" % v


def reference(x, y):
    """The ten cells for my data x and golden y (float64, flattened)."""
    x = x.astype(np.float64).ravel()
    y = y.astype(np.float64).ravel()
    out = {}
    with np.errstate(all="ignore"):
        nx, ny = np.linalg.norm(x), np.linalg.norm(y)
        if x.size == 1:
            out["CosineSimilarity"] = "1.000000"
        elif nx <= EPS and ny < EPS:
            out["CosineSimilarity"] = "1.0"
        elif nx <= EPS or ny <= EPS:
            out["CosineSimilarity"] = "NaN"
        else:
            c = np.sum((x / nx) * (y / ny))
            out["CosineSimilarity"] = f6(c if np.isnan(c) or c <= 1.0 else 1.0)
        out["MaxAbsoluteError"] = f6(np.max(np.abs(x - y)))
        rel = np.where(np.abs(y) > EPS, np.abs(x / y - 1), 0.0)
        out["AccumulatedRelativeError"] = f6(np.sum(rel))
        out["RelativeEuclideanDistance"] = f6(
            0.0 if np.sqrt(np.sum(y * y)) <= EPS else np.sqrt(np.sum((x - y) ** 2) / np.sum(y * y)))

        def dist(v):
            mn, mx = np.min(v), np.max(v)
            p = (v - mn) / (mx - mn) if mx != mn else v.copy()
            p = np.maximum(p, EPS32)
            return p / np.sum(p)
        if np.all(np.isfinite(x)) and np.all(np.isfinite(y)):
            qx, qy = dist(x), dist(y)
            k = np.sum(qx * np.log(qx / qy))
            out["KullbackLeiblerDivergence"] = f6(0.0 if abs(k) < EPS else k)
        else:
            out["KullbackLeiblerDivergence"] = "NaN"
        out["StandardDeviation"] = "({};{}),({};{})".format(
            f3(np.mean(x)), f3(np.std(x)), f3(np.mean(y)), f3(np.std(y)))
        out["MeanAbsoluteError"] = f6(np.mean(np.abs(x - y)))
        out["RootMeanSquareError"] = f6(np.sqrt(np.mean((x - y) ** 2)))
        out["MaxRelativeError"] = f6(np.max(rel))
        out["MeanRelativeError"] = f6(np.mean(rel))
    return out


def agree(ours, ref):
    """Equal, or numerically equal to the printed precision (one unit in the last place)."""
    if ours == ref:
        return True
    if ours.startswith("("):  # StandardDeviation: four 3-decimal numbers
        a = ours.replace("(", "").replace(")", "").replace(";", ",").split(",")
        b = ref.replace("(", "").replace(")", "").replace(";", ",").split(",")
        try:
            return len(a) == len(b) and all(abs(float(p) - float(q)) <= 1.5e-3 for p, q in zip(a, b))
        except ValueError:
            return False
    try:
        p, q = float(ours), float(ref)
    except ValueError:
        return False
    if np.isnan(p) or np.isnan(q) or np.isinf(p) or np.isinf(q):
        return (np.isnan(p) and np.isnan(q)) or p == q
    return abs(p - q) <= 1.5e-6 + 1e-12 * abs(q)


def cases(rng):
    n = 1000
    a = rng.standard_normal(n).astype(np.float32)
    yield "random_fp32", a + rng.standard_normal(n).astype(np.float32) * 0.01, a
    yield "random_fp32_large", (rng.standard_normal(70000) * 50).astype(np.float32), \
        (rng.standard_normal(70000) * 50).astype(np.float32)
    yield "random_fp64", rng.standard_normal(n), rng.standard_normal(n)
    yield "fp16_vs_fp32", a.astype(np.float16), a
    yield "all_zeros", np.zeros(16, np.float32), np.zeros(16, np.float32)
    yield "my_side_zero", np.zeros(16, np.float32), rng.standard_normal(16).astype(np.float32)
    yield "golden_side_zero", rng.standard_normal(16).astype(np.float32), np.zeros(16, np.float32)
    yield "golden_has_zeros", np.arange(8, dtype=np.float32), np.array([0, 1, 0, 3, 4, 0, 6, 8], np.float32)
    yield "scalar", np.array(3.5, np.float32), np.array(2.0, np.float32)
    yield "constant_sides", np.full(10, 2.0, np.float32), np.full(10, 3.0, np.float32)
    nan = np.array([1, np.nan, 3, 4], np.float32)
    yield "nan_my", nan, np.array([1, 2, 3, 4], np.float32)
    yield "inf_golden", np.array([1, 2, 3, 4], np.float32), np.array([1, np.inf, 3, -np.inf], np.float32)
    yield "int32", rng.integers(-100, 100, 500).astype(np.int32), rng.integers(-100, 100, 500).astype(np.int32)
    yield "int8_uint8", rng.integers(-100, 100, 300).astype(np.int8), rng.integers(0, 200, 300).astype(np.uint8)
    yield "int64", rng.integers(-10**6, 10**6, 200), rng.integers(-10**6, 10**6, 200)
    yield "bool", rng.integers(0, 2, 64).astype(bool), rng.integers(0, 2, 64).astype(bool)
    yield "big_endian", a.astype(">f4"), a.astype("<f4") * 1.001
    m = rng.standard_normal((6, 7)).astype(np.float32)
    yield "fortran_vs_c", np.asfortranarray(m * 1.01), np.ascontiguousarray(m)
    yield "big_values", (rng.standard_normal(200) * 1e6 + 1e7).astype(np.float64), \
        (rng.standard_normal(200) * 1e6 + 1e7).astype(np.float64)


def main():
    work = sys.argv[1]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(20261130)
    bad = 0
    count = 0
    for name, x, y in cases(rng):
        d = os.path.join(work, name)
        os.makedirs(d, exist_ok=True)
        mp, gp = os.path.join(d, "my.npy"), os.path.join(d, "golden.npy")
        np.save(mp, x)
        np.save(gp, y)
        out = os.path.join(d, "out")
        p = subprocess.run(["mscompare", "-m", mp, "-g", gp, "-out", out, "--format=json"],
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            print("FAIL %s: mscompare exit %d: %s" % (name, p.returncode, p.stderr))
            bad += 1
            continue
        summary = json.loads(p.stdout)
        with open(summary["result_csv"]) as f:
            rows = list(csv.reader(f))
        header, row = rows[0], rows[1]
        ref = reference(x, y)
        is_bool = x.dtype == bool
        for m in NAMES:
            ours = row[header.index(m)]
            want = ref[m]
            if is_bool and m not in ("CosineSimilarity", "RelativeEuclideanDistance"):
                want = "NaN"
            count += 1
            if not agree(ours, want):
                print("FAIL %s %s: mscompare %s, numpy %s" % (name, m, ours, want))
                bad += 1
    print("%d metric cells checked, %d disagree" % (count, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
