# Dumps written in the device layouts a real NPU uses (NC1HWC0, FRACTAL_Z, FRACTAL_NZ, with the
# origin shape in the header) are converted back to the golden layout before comparing: the
# same tensor gives cosine 1.000000 against the NCHW / ND golden .npy. Dump inputs are compared
# when both sides are dumps (TensorIndex <op>:input:<n>). A wrong origin shape is refused.
mkdir -p golden my npy gdump
/usr/bin/python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(7)
x = rng.standard_normal((2, 20, 5, 3)).astype(np.float32)      # C = 20: not a multiple of 16
w = rng.standard_normal((18, 20, 3, 3)).astype(np.float32)     # N = 18: not a multiple of 16
m = rng.standard_normal((19, 45)).astype(np.float16)           # M, N not multiples of 16
q = rng.integers(-100, 100, (1, 40, 2, 2)).astype(np.int8)     # int8: C0 = 32
np.save("npy/x.npy", x); np.save("npy/w.npy", w); np.save("npy/m.npy", m); np.save("npy/q.npy", q)
np.save("golden/feat.0.10.npy", x)
np.save("golden/weight.0.20.npy", w)
np.save("golden/matmul.0.30.npy", m)
np.save("golden/quant.0.40.npy", q)
np.save("golden/feat_nhwc.0.50.npy", x.transpose(0, 2, 3, 1))  # a TF-style NHWC golden
PY
asc_make_dump my/TransData.feat.1.0.0000000000000010 feat --format=NC1HWC0 npy/x.npy || fail "make_dump NC1HWC0"
asc_make_dump my/Const.weight.2.0.0000000000000020 weight --format=FRACTAL_Z npy/w.npy || fail "make_dump FRACTAL_Z"
asc_make_dump my/MatMul.matmul.3.0.0000000000000030 matmul --format=FRACTAL_NZ npy/m.npy || fail "make_dump FRACTAL_NZ"
asc_make_dump my/Quant.quant.4.0.0000000000000040 quant --format=NC1HWC0 npy/q.npy || fail "make_dump int8"
# NC1HWC0 packed from the NCHW data, origin recorded as NHWC (OriginalOp.format)
asc_make_dump my/Conv2D.feat_nhwc.5.0.0000000000000050 feat_nhwc --format=NC1HWC0 \
  --origin_shape=2,5,3,20 --original_format=NHWC npy/x.npy || fail "make_dump NHWC origin"
# The dumps' stored bytes are the layouts as numpy builds them from the public definitions
# (pad, reshape, transpose), independently of the C++ packer and converter.
/usr/bin/python3 - <<'PY' || fail "stored layouts differ from numpy's"
import numpy as np
def stored(path, a):
    raw = open(path, "rb").read()
    return np.frombuffer(raw[len(raw) - a.nbytes:], dtype=a.dtype)
def pad(a, shape):
    p = np.zeros(shape, dtype=a.dtype); p[tuple(slice(0, d) for d in a.shape)] = a; return p
x = np.load("npy/x.npy"); w = np.load("npy/w.npy"); m = np.load("npy/m.npy"); q = np.load("npy/q.npy")
def nc1hwc0(a, c0):
    n, c, h, ww = a.shape; c1 = -(-c // c0)
    return pad(a, (n, c1 * c0, h, ww)).reshape(n, c1, c0, h, ww).transpose(0, 1, 3, 4, 2)
n, c, h, ww = w.shape; n1, c1 = -(-n // 16), -(-c // 16)
fz = pad(w, (n1 * 16, c1 * 16, h, ww)).reshape(n1, 16, c1, 16, h, ww).transpose(2, 4, 5, 0, 1, 3)
mm, nn = m.shape; m1, n1 = -(-mm // 16), -(-nn // 16)
nz = pad(m, (m1 * 16, n1 * 16)).reshape(m1, 16, n1, 16).transpose(2, 0, 1, 3)
for path, want in [("my/TransData.feat.1.0.0000000000000010", nc1hwc0(x, 16)),
                   ("my/Const.weight.2.0.0000000000000020", fz),
                   ("my/MatMul.matmul.3.0.0000000000000030", nz),
                   ("my/Quant.quant.4.0.0000000000000040", nc1hwc0(q, 32))]:
    assert np.array_equal(stored(path, want), want.ravel()), path
PY
run mscompare -m my -g golden -out cmp
expect_exit 0
expect_stdout_line "tensors compared      5"
expect_stdout_line "passed                5"
! grep -q "flat" "$STDERR" || fail "still compared as flat: $(cat "$STDERR")"
csv=$(ls cmp/result_*.csv)
/usr/bin/python3 - "$csv" <<'PY' || fail "csv rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 5, rows
shapes = {r["NPUDump"]: r["Shape"] for r in rows}
assert shapes == {"feat": "[2, 20, 5, 3]", "weight": "[18, 20, 3, 3]", "matmul": "[19, 45]",
                  "quant": "[1, 40, 2, 2]", "feat_nhwc": "[2, 5, 3, 20]"}, shapes
for r in rows:
    assert r["CosineSimilarity"] == "1.000000", r
    assert r["MaxAbsoluteError"] == "0.000000", r
    assert r["TensorIndex"] == r["NPUDump"] + ":output:0", r
PY

# Inputs: a conv dump with its feature map in NC1HWC0 and its weight in FRACTAL_Z against a
# golden dump of the same op in ND; rows <op>:input:0, <op>:input:1, <op>:output:0.
mkdir -p my2
asc_make_dump my2/Conv2D.conv.1.0.0000000000000001 conv --format=NC1HWC0 --input=npy/x.npy \
  --format=FRACTAL_Z --input=npy/w.npy --format=NC1HWC0 npy/x.npy || fail "make_dump inputs"
asc_make_dump gdump/Conv2D.conv.1.0.0000000000000001 conv --input=npy/x.npy --input=npy/w.npy \
  npy/x.npy || fail "make_dump golden inputs"
run mscompare -m my2 -g gdump -out cmp2
expect_exit 0
expect_stdout_line "tensors compared      3"
csv=$(ls cmp2/result_*.csv)
/usr/bin/python3 - "$csv" <<'PY' || fail "input rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["TensorIndex"] for r in rows] == ["conv:input:0", "conv:input:1", "conv:output:0"], rows
assert [r["Shape"] for r in rows] == ["[2, 20, 5, 3]", "[18, 20, 3, 3]", "[2, 20, 5, 3]"], rows
assert all(r["CosineSimilarity"] == "1.000000" for r in rows), rows
PY
# Against golden .npy files (outputs only) the dump's inputs are left out, not "no golden".
mkdir -p g3 && cp golden/feat.0.10.npy g3/conv.0.1.npy
run mscompare -m my2 -g g3 -out cmp3
expect_exit 0
expect_stdout_line "tensors compared      1"
expect_stdout_not_contains "no golden data"

# A wrong origin shape (C = 40 where 20 were stored) is refused, never compared as flat data:
# an error for a pair of files (exit 2), a failed row in a folder (exit 1).
asc_make_dump bad.dump feat --format=NC1HWC0 --origin_shape=2,40,5,3 npy/x.npy || fail "make_dump bad"
run mscompare -m bad.dump -g golden/feat.0.10.npy -out cmp4
expect_exit 2
expect_stderr_contains "E13005"
expect_stderr_contains "NC1HWC0"
expect_stderr_contains "(2,40,5,3)"
expect_stderr_contains "original_shape"
expect_no_file cmp4
mkdir -p my5 && cp my/TransData.feat.1.0.0000000000000010 my/Const.weight.2.0.0000000000000020 my5/
asc_make_dump my5/TransData.feat.1.0.0000000000000010 feat --format=NC1HWC0 --origin_shape=2,40,5,3 npy/x.npy
run mscompare -m my5 -g golden -out cmp5
expect_exit 1
expect_stdout_line "passed                1"
expect_stdout_contains "first failing layer   feat output 0"
grep -q "original_shape" cmp5/result_*.csv || fail "no reason in the csv: $(cat cmp5/result_*.csv)"
