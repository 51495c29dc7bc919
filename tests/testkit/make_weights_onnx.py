#!/usr/bin/python3
"""make_weights_onnx.py ONNX_PROTO OUT.onnx REF_DIR: writes a small ONNX model whose weights span
the sizes and kinds the OM writer treats differently (docs/om-format.md, "Packed weights"): a
3x3 convolution of 1.7 KiB (kept plain beside its packed copy), one of 36 KiB (Winograd's kind on
AVX-512, else blocked), 1x1 convolutions of exactly 16 KiB and of 24 KiB, and a MatMul weight of
75 KiB; and REF_DIR/<initializer>.npy with each initializer's values. Encoded with protoc from
text (no Python onnx module needed)."""
import os
import subprocess
import sys

import numpy as np

proto, out, ref = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(ref, exist_ok=True)
rng = np.random.default_rng(7)
inits, nodes = [], []


def weight(name, shape):
    w = (rng.standard_normal(shape) * 0.1).astype(np.float32)
    np.save(os.path.join(ref, name + ".npy"), w)
    inits.append('initializer { name: "%s" data_type: 1 %s %s }' % (
        name, " ".join("dims: %d" % d for d in shape),
        " ".join("float_data: %r" % float(x) for x in w.reshape(-1))))


def conv(name, x, y, w_shape, pad):
    weight(name + "_w", w_shape)
    nodes.append('node { op_type: "Conv" name: "%s" input: "%s" input: "%s_w" output: "%s" '
                 'attribute { name: "pads" type: INTS %s } }' % (
                     name, x, name, y, " ".join(["ints: %d" % pad] * 4)))


conv("c1", "x", "h1", [16, 3, 3, 3], 1)        # 1.7 KiB
nodes.append('node { op_type: "Relu" name: "r1" input: "h1" output: "a1" }')
conv("c2", "a1", "h2", [64, 16, 3, 3], 1)      # 36 KiB
conv("c3", "h2", "h3", [64, 64, 1, 1], 0)      # 16 KiB exactly
conv("c4", "h3", "h4", [96, 64, 1, 1], 0)      # 24 KiB
nodes.append('node { op_type: "GlobalAveragePool" name: "gap" input: "h4" output: "g" }')
nodes.append('node { op_type: "Flatten" name: "flat" input: "g" output: "f" }')
weight("fc_w", [96, 200])                      # 75 KiB
nodes.append('node { op_type: "MatMul" name: "fc" input: "f" input: "fc_w" output: "y" }')


def value(name, dims):
    return ('%s { name: "%s" type { tensor_type { elem_type: 1 shape { %s } } } }' % (
        "%s", name, " ".join("dim { dim_value: %d }" % d for d in dims)))


text = "\n".join(["ir_version: 8", 'opset_import { domain: "" version: 13 }',
                  'graph { name: "weights"'] + nodes + inits +
                 [value("x", [1, 3, 16, 16]) % "input", value("y", [1, 200]) % "output", "}"])
encoded = subprocess.run(["protoc", "--encode=onnx.ModelProto", "-I" + os.path.dirname(proto),
                          proto], input=text.encode(), stdout=subprocess.PIPE, check=True).stdout
with open(out, "wb") as f:
    f.write(encoded)
