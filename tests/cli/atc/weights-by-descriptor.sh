# Every weight of an fp32 OM (most stored only in a CPU kernel's blocked layout) and of an fp16
# OM reads right by its TensorDescriptor alone, as a model viewer such as Netron reads it: the
# dtype, shape, layout, data_offset, weight_size and origin_shape, decoded by
# tests/testkit/om_weights.py (struct + protoc, independent of our runtime and reader), equal the
# ONNX initializers (fp16: the initializers rounded to fp16) and weight_size always matches the
# shape. The model (tests/testkit/make_weights_onnx.py) has weights of 1.7 KiB and exactly 16 KiB
# (kept plain) and of 24-75 KiB (stored packed, their layout a oneDNN format tag).
PY=/usr/bin/python3
[ -x "$PY" ] && command -v protoc >/dev/null || skip "needs /usr/bin/python3 and protoc"
$PY -c "import numpy" 2>/dev/null || skip "needs python3-numpy"
$PY "$ROOT/tests/testkit/make_weights_onnx.py" /usr/include/onnx/onnx.proto w.onnx ref ||
  fail "could not write the model"

run atc --model=w.onnx --framework=5 --output=w32 --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
run atc --model=w.onnx --framework=5 --output=w16 --soc_version=Ascend310
expect_exit 0
for m in w32 w16; do
  run $PY "$ROOT/tests/testkit/om_weights.py" $m.om "$ROOT/libasccore/src/proto" got-$m
  expect_exit 0
  expect_stdout_line "weights=5"
done
cat > check.py <<'PY'
import numpy as np, os
packed = 0
for name in sorted(os.listdir("ref")):
    want = np.load("ref/" + name)
    got32 = np.load("got-w32/" + name)
    assert got32.shape == want.shape and np.array_equal(got32, want), name + ": fp32 differs"
    got16 = np.load("got-w16/" + name[:-4] + "_fp16.npy")
    assert got16.dtype == np.float16 and np.array_equal(got16, want.astype(np.float16)), \
        name + ": fp16 differs"
    print("same", name)
PY
run $PY check.py
expect_exit 0
for w in c1_w c2_w c3_w c4_w fc_w; do expect_stdout_line "same $w.npy"; done
# The packed ones say what they are: a format tag and the tensor's own shape beside it.
run atc --mode=1 --om=w32.om --json=w32.json
expect_exit 0
n=$(grep -c '"key": "_asc_packed_only"' w32.json)
[ "$n" -ge 2 ] || fail "$n weights stored only packed, expected at least 2 (c4_w, fc_w)"
grep -q '"key": "origin_shape"' w32.json || fail "no origin_shape on the packed weights"
