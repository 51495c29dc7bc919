#!/usr/bin/python3
"""make_narrow_types.py ONNX_PROTO OUT_DIR: writes models that use the float8 types (opset 19)
and int4/uint4 (opset 21), encoded with protoc (Debian's onnx 1.12 knows neither), with their
inputs and the outputs numpy formulas of the ONNX definitions give, for
tests/cli/atc/narrow-types.sh:
  cast8   x [N] float32 -> Cast to each float8 type, saturate 1 and 0 -> Cast back: y0..y7
  qdq8    QuantizeLinear-19 to float8e4m3fn (scale 0.25) and to float8e5m2 (scale 2,
          saturate 0) -> DequantizeLinear: y0, y1
  int4    x2 [4, 6]: MatMul by an int4 weight [6, 5] (packed raw data, blocked scale and zero
          point: block_size 2 along axis 0, DequantizeLinear-21) -> y0; QuantizeLinear to uint4
          (output_dtype) -> DequantizeLinear -> y1; x times a uint4 vector stored as int32_data
          (one packed byte per value) -> y2
  cast4   Cast-21 of 3 x2 to int4 and to uint4 and back (clipped, then rounded half to even)
  dqin    an int4 graph input q [6] -> DequantizeLinear (scale 0.5, zero point 1) -> y0
  relu8   Relu on a float8 tensor (refused: Relu does not compute float8)
The float8 reference rounds by search: the nearest of all codes of the type (plus the first
step past its largest value, which is the overflow), ties to the even code; a value past the
largest is the largest with saturate, else infinity (E5M2) or NaN. No bit arithmetic is shared
with asc-tools' codec. Expected outputs are expect_<model>_<i>.bin (float32)."""
import os
import subprocess
import sys

import numpy as np

proto, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(21)

# exponent bits, mantissa bits, bias, specials ("fn": S.1111.111 NaN; "ieee": E5M2's
# infinities and NaNs; "fnuz": 0x80 the only NaN)
FORMATS = {17: (4, 3, 7, "fn"), 18: (4, 3, 8, "fnuz"), 19: (5, 2, 15, "ieee"),
           20: (5, 2, 16, "fnuz")}


def magnitudes(t):
    """The value of each code 0..127 (None for NaN and infinity codes)."""
    e_bits, m_bits, bias, kind = FORMATS[t]
    vals = []
    for c in range(128):
        e, m = c >> m_bits, c & ((1 << m_bits) - 1)
        if kind == "fn" and c == 127 or kind == "ieee" and e == (1 << e_bits) - 1:
            vals.append(None)
            continue
        if e == 0:
            vals.append(m / 2.0 ** m_bits * 2.0 ** (1 - bias))
        else:
            vals.append((1 + m / 2.0 ** m_bits) * 2.0 ** (e - bias))
    return vals


def to_float8(x, t, saturate):
    """The value (as float) that x converts to."""
    _, m_bits, _, kind = FORMATS[t]
    mags = magnitudes(t)
    finite = [(c, v) for c, v in enumerate(mags) if v is not None]
    top_code, top = finite[-1]
    # the first value past the largest: the largest plus its spacing (a code of its own)
    past = (top_code + 1, top + (top - finite[-2][1]))
    big = top if saturate else (np.inf if kind == "ieee" else np.nan)
    out = []
    for v in np.asarray(x, dtype=np.float64):
        if np.isnan(v):
            out.append(np.nan)
            continue
        a = abs(v)
        if np.isinf(a):
            r = big
        else:
            best = None
            for c, m in finite + [past]:
                d = abs(m - a)
                if best is None or d < best[0] or d == best[0] and c % 2 == 0:
                    best = (d, c, m)
            r = big if best[1] == past[0] else best[2]
        neg = np.signbit(v) and not (kind == "fnuz" and r == 0)
        out.append(-r if neg else r)
    return np.array(out, dtype=np.float32)


def int4(x, signed):
    lo, hi = (-8, 7) if signed else (0, 15)
    return np.rint(np.clip(x, lo, hi)).astype(np.float32)


def io(kind, name, dims, elem=1):
    return '%s { name: "%s" type { tensor_type { elem_type: %d shape { %s } } } }' % (
        kind, name, elem, " ".join("dim { dim_value: %d }" % d for d in dims))


def raw(name, data_type, dims, data):
    esc = "".join("\\%03o" % b for b in bytes(data))
    return 'initializer { name: "%s" data_type: %d %s raw_data: "%s" }' % (
        name, data_type, " ".join("dims: %d" % d for d in dims), esc)


def floats(name, vals, dims):
    return 'initializer { name: "%s" data_type: 1 %s %s }' % (
        name, " ".join("dims: %d" % d for d in dims),
        " ".join("float_data: %r" % float(v) for v in np.ravel(vals)))


def attr_i(name, v):
    return 'attribute { name: "%s" type: INT i: %d }' % (name, v)


def node(op, ins, outs, *attrs):
    return 'node { op_type: "%s" name: "%s" %s %s %s }' % (
        op, outs[0], " ".join('input: "%s"' % i for i in ins),
        " ".join('output: "%s"' % o for o in outs), " ".join(attrs))


def model(name, opset, body, inputs, outputs):
    text = "\n".join(["ir_version: 10", 'opset_import { domain: "" version: %d }' % opset,
                      'graph { name: "%s"' % name] + body + inputs +
                     [io("output", n, v.shape) for n, v in outputs] + ["}"])
    enc = subprocess.run(["protoc", "--encode=onnx.ModelProto", "-I" + os.path.dirname(proto),
                          proto], input=text.encode(), stdout=subprocess.PIPE, check=True).stdout
    open(os.path.join(out, name + ".onnx"), "wb").write(enc)
    for i, (_, v) in enumerate(outputs):
        np.ascontiguousarray(v, dtype=np.float32).tofile(
            os.path.join(out, "expect_%s_%d.bin" % (name, i)))


def save(name, a):
    a.tofile(os.path.join(out, name + ".bin"))
    np.save(os.path.join(out, name + ".npy"), a)


# cast8: special values, each type's extremes and midpoints, then random magnitudes
special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 448.0, 464.0, 465.0, 240.0, 248.0,
           57344.0, 61440.0, 1e6, -1e6, 2.0 ** -9, 2.0 ** -10, 2.0 ** -17, 2.0 ** -18, 1e-30,
           0.3, 7.6, -8.5, 3.0 * 2.0 ** -11]
rand = (rng.standard_normal(103) * np.exp2(rng.uniform(-18, 17, 103)))
x = np.array(special + list(rand), dtype=np.float32)
save("x", x)
body, outs = [], []
for k, (t, sat) in enumerate([(t, s) for t in (17, 18, 19, 20) for s in (1, 0)]):
    body += [node("Cast", ["x"], ["c%d" % k], attr_i("to", t), attr_i("saturate", sat)),
             node("Cast", ["c%d" % k], ["y%d" % k], attr_i("to", 1))]
    outs.append(("y%d" % k, to_float8(x, t, sat)))
model("cast8", 19, body, [io("input", "x", x.shape)], outs)

# qdq8
q0 = to_float8((x / np.float32(0.25)).astype(np.float32), 17, 1) * np.float32(0.25)
q1 = to_float8((x / np.float32(2.0)).astype(np.float32), 19, 0) * np.float32(2.0)
model("qdq8", 19, [
    node("QuantizeLinear", ["x", "s0", "z0"], ["q0"]),
    node("DequantizeLinear", ["q0", "s0", "z0"], ["y0"]),
    node("QuantizeLinear", ["x", "s1", "z1"], ["q1"], attr_i("saturate", 0)),
    node("DequantizeLinear", ["q1", "s1", "z1"], ["y1"]),
    floats("s0", [0.25], []), raw("z0", 17, [], [0]),
    floats("s1", [2.0], []), raw("z1", 19, [], [0]),
], [io("input", "x", x.shape)], [("y0", q0), ("y1", q1)])

# int4
x2 = rng.uniform(-3, 3, (4, 6)).astype(np.float32)
save("x2", x2)
w = rng.integers(-8, 8, (6, 5))
ws = rng.uniform(0.05, 0.5, (3, 5)).astype(np.float32)
wz = rng.integers(-2, 3, (3, 5))
def pack(vals):
    nib = [int(v) & 0xF for v in np.ravel(vals)] + [0]
    return bytes(nib[i] | nib[i + 1] << 4 for i in range(0, len(nib) - 1, 2))
wf = ((w - np.repeat(wz, 2, axis=0)).astype(np.float32) * np.repeat(ws, 2, axis=0))
y0 = (x2.astype(np.float64) @ wf.astype(np.float64)).astype(np.float32)
y1 = int4(np.rint(x2 / np.float32(0.5)), False) * np.float32(0.5)
y2 = int4((x2 * np.float32(3)).astype(np.float32), True)
u = [3, 15, 0, 7, 9, 1]  # uint4 as int32_data: one packed byte per value, 3 of them
packed_u = pack(u)
y3 = x2 * np.float32(0.25) * np.array(u, dtype=np.float32)
body = [
    raw("w", 22, [6, 5], pack(w)), floats("ws", ws, [3, 5]), raw("wz", 22, [3, 5], pack(wz)),
    node("DequantizeLinear", ["w", "ws", "wz"], ["wf"], attr_i("axis", 0),
         attr_i("block_size", 2)),
    node("MatMul", ["x2", "wf"], ["y0"]),
    floats("s", [0.5], []),
    node("QuantizeLinear", ["x2", "s"], ["q"], attr_i("output_dtype", 21)),
    node("DequantizeLinear", ["q", "s"], ["y1"]),
    'initializer { name: "u" data_type: 21 dims: 6 %s }' % " ".join(
        "int32_data: %d" % b for b in packed_u),
    floats("quarter", [0.25], []),
    node("DequantizeLinear", ["u", "quarter"], ["uf"]),
    node("Mul", ["x2", "uf"], ["y2"]),
]
model("int4", 21, body, [io("input", "x2", x2.shape)], [("y0", y0), ("y1", y1), ("y2", y3)])
# cast4: Cast-21 to int4 and uint4 and back (ONNX Runtime 1.20.1 has no Cast-21)
model("cast4", 21, [floats("three", [3.0], []), node("Mul", ["x2", "three"], ["x3"]),
                    node("Cast", ["x3"], ["c4"], attr_i("to", 22)),
                    node("Cast", ["c4"], ["y0"], attr_i("to", 1)),
                    node("Cast", ["x3"], ["u4"], attr_i("to", 21)),
                    node("Cast", ["u4"], ["y1"], attr_i("to", 1))],
      [io("input", "x2", x2.shape)], [("y0", y2), ("y1", int4((x2 * np.float32(3)), False))])

# dqin: an int4 graph input; q.npy holds int8 values in range, q_bad.npy one that is not
q = np.array([-8, -1, 0, 1, 5, 7], dtype=np.int8)
np.save(os.path.join(out, "q.npy"), q)
np.save(os.path.join(out, "q_bad.npy"), np.array([0, 1, 2, 9, 0, 0], dtype=np.int8))
model("dqin", 21, [floats("s", [0.5], []), raw("z", 22, [], pack([1])),
                   node("DequantizeLinear", ["q", "s", "z"], ["y0"])],
      [io("input", "q", q.shape, elem=22)],
      [("y0", (q.astype(np.float32) - 1) * np.float32(0.5))])

# relu8: refused
model("relu8", 19, [node("Cast", ["x"], ["c"], attr_i("to", 17)),
                    node("Relu", ["c"], ["r"]),
                    node("Cast", ["r"], ["y0"], attr_i("to", 1))],
      [io("input", "x", x.shape)], [("y0", x)])
