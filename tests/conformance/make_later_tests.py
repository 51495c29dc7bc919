#!/usr/bin/python3
"""make_later_tests.py OUT_DIR: node tests for the operators of opsets 18 to 24, in the layout of
the ONNX backend node tests (OUT_DIR/test_<name>/model.onnx, test_data_set_0/input_<i>.pb and
output_<i>.pb), so that tests/conformance/run.sh runs them like the official ones. Debian's
libonnx-testdata stops at ONNX 1.12 (opset 17): these are the models and numpy references of the
project's own generators in tests/testkit, repackaged:
  make_opset18.py          Reduce* with axes as an input, Split num_outputs, Pad axes and
                           reflect, Resize axes with keep_aspect_ratio_policy, ScatterElements max
  make_resize_antialias.py Resize-18 antialias=1, ten cases
  make_grid_sample3d.py    GridSample-20 on volumes, every mode, padding and align_corners
  make_attention.py        Attention-23/24 (heads, GQA, masks, softcap, cache, qk output,
                           nonpad_kv_seqlen) and RotaryEmbedding-23
  make_narrow_types.py     Cast-19 to and from the float8 types (saturate 1 and 0), Q/DQ-19 with
                           float8, Q/DQ-21 with int4/uint4 (blocked), Cast-21 to int4/uint4
Each expected output is the generator's numpy formula of the ONNX definition. Needs python3-onnx
(to write TensorProtos) and protoc (the generators). Prints the number of tests written."""
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np
from onnx import TensorProto, load, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
KIT = os.path.join(HERE, "..", "testkit")
PROTO_DIR = "/usr/include/onnx"
out_root = sys.argv[1]
os.makedirs(out_root, exist_ok=True)
written = 0

DTYPES = {TensorProto.FLOAT: np.float32, TensorProto.INT64: np.int64, TensorProto.BOOL: np.bool_}


def io_of(model_path):
    """(inputs, outputs): lists of (name, numpy dtype, shape) of the graph, initializers left out."""
    m = load(model_path)
    inits = {t.name for t in m.graph.initializer}

    def info(v):
        tt = v.type.tensor_type
        return v.name, DTYPES.get(tt.elem_type, np.float32), [d.dim_value for d in tt.shape.dim]

    return ([info(v) for v in m.graph.input if v.name not in inits],
            [info(v) for v in m.graph.output])


def write_test(name, model_path, inputs, outputs):
    """inputs / outputs: lists of numpy arrays, in the graph's order."""
    global written
    d = os.path.join(out_root, "test_" + name)
    data = os.path.join(d, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    with open(model_path, "rb") as f, open(os.path.join(d, "model.onnx"), "wb") as g:
        g.write(f.read())
    ins, outs = io_of(model_path)
    for i, ((n, _, _), a) in enumerate(zip(ins, inputs)):
        with open(os.path.join(data, "input_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(a, n).SerializeToString())
    for i, ((n, _, _), a) in enumerate(zip(outs, outputs)):
        with open(os.path.join(data, "output_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(a, n).SerializeToString())
    written += 1


def from_bins(prefix, tmp, model, x_file):
    """A model of one float32 input x whose expected outputs are expect_<model>_<i>.bin."""
    path = os.path.join(tmp, model + ".onnx")
    ins, outs = io_of(path)
    x = np.fromfile(os.path.join(tmp, x_file), np.float32).reshape(ins[0][2])
    ys = [np.fromfile(os.path.join(tmp, "expect_%s_%d.bin" % (model, i)), dtype).reshape(shape)
          for i, (_, dtype, shape) in enumerate(outs)]
    write_test("%s_%s" % (prefix, model), path, [x], ys)


def run(script, *args):
    subprocess.run(["/usr/bin/python3", os.path.join(KIT, script)] + list(args), check=True,
                   stdout=subprocess.DEVNULL)


with tempfile.TemporaryDirectory() as tmp:
    t = os.path.join(tmp, "opset18")
    run("make_opset18.py", os.path.join(PROTO_DIR, "onnx.proto"), t)
    for model in ("reduce", "split", "pad", "resize", "scatter"):
        from_bins("asc18", t, model, "x.bin")

    t = os.path.join(tmp, "aa")
    run("make_resize_antialias.py", os.path.join(PROTO_DIR, "onnx.proto"), t)
    from_bins("asc18_resize", t, "aa", "x.bin")

    t = os.path.join(tmp, "gs")
    run("make_grid_sample3d.py", os.path.join(PROTO_DIR, "onnx.proto"), t)
    for model in ("gs3d", "gs3dc"):
        from_bins("asc20", t, model, "x.bin")

    t = os.path.join(tmp, "narrow")
    run("make_narrow_types.py", os.path.join(PROTO_DIR, "onnx.proto"), t)
    for model, x_file in (("cast8", "x.bin"), ("qdq8", "x.bin"), ("int4", "x2.bin"),
                          ("cast4", "x2.bin")):
        from_bins("asc21", t, model, x_file)

    t = os.path.join(tmp, "attn")
    run("make_attention.py", PROTO_DIR, t)
    for listing in sorted(glob.glob(os.path.join(t, "*.txt"))):
        case = os.path.basename(listing)[:-4]
        files = open(listing).read().split()
        if case == "old22":  # refused by design (Attention before opset 23)
            continue
        ins = [np.load(os.path.join(t, f)) for f in files if "_in" in f]
        outs = [np.load(os.path.join(t, f)) for f in files if "_want" in f]
        write_test("asc23_" + case, os.path.join(t, case + ".onnx"), ins, outs)

print(written)
