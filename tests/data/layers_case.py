#!/usr/bin/env python3
"""layers_case.py DIR N: a small transformer-like stack for tests/cli/atc/convert-layers.sh.

Writes DIR/blocks/block_<k>.textproto (k < N), each one residual MLP block
y = x + Relu(LayerNorm(x) @ W1_k + b1_k) @ W2_k on x [1, 8, 64], DIR/whole.textproto with the N
blocks in one graph, and DIR/x.bin, the input. ONNX text format (encode with protoc)."""
import sys
import numpy as np

d, n = sys.argv[1], int(sys.argv[2])
D, H = 64, 128
rng = np.random.default_rng(11)
params = [(rng.normal(0, 0.1, (D, H)), rng.normal(0, 0.1, H), rng.normal(0, 0.1, (H, D)))
          for _ in range(n)]


def floats(a):
    return " ".join(f"float_data: {v!r}" for v in np.asarray(a, np.float32).ravel().tolist())


def dims(a):
    return " ".join(f"dims: {x}" for x in np.shape(a))


def block(k, x, y):
    w1, b1, w2 = params[k]
    p = f"b{k}_"
    nodes = f"""
  node {{ op_type: "LayerNormalization" name: "{p}ln" input: "{x}" input: "{p}g" input: "{p}beta"
         output: "{p}n" attribute {{ name: "axis" type: INT i: -1 }} }}
  node {{ op_type: "MatMul" name: "{p}mm1" input: "{p}n" input: "{p}w1" output: "{p}h" }}
  node {{ op_type: "Add" name: "{p}add1" input: "{p}h" input: "{p}b1" output: "{p}hb" }}
  node {{ op_type: "Relu" name: "{p}relu" input: "{p}hb" output: "{p}r" }}
  node {{ op_type: "MatMul" name: "{p}mm2" input: "{p}r" input: "{p}w2" output: "{p}o" }}
  node {{ op_type: "Add" name: "{p}res" input: "{x}" input: "{p}o" output: "{y}" }}"""
    inits = f"""
  initializer {{ name: "{p}g" data_type: 1 dims: {D} {floats(np.ones(D))} }}
  initializer {{ name: "{p}beta" data_type: 1 dims: {D} {floats(np.zeros(D))} }}
  initializer {{ name: "{p}w1" data_type: 1 {dims(w1)} {floats(w1)} }}
  initializer {{ name: "{p}b1" data_type: 1 {dims(b1)} {floats(b1)} }}
  initializer {{ name: "{p}w2" data_type: 1 {dims(w2)} {floats(w2)} }}"""
    return nodes, inits


def model(name, body, x, y):
    shape = "dim { dim_value: 1 } dim { dim_value: 8 } dim { dim_value: 64 }"
    return f"""ir_version: 8
opset_import {{ domain: "" version: 17 }}
graph {{
  name: "{name}"{body}
  input {{ name: "{x}" type {{ tensor_type {{ elem_type: 1 shape {{ {shape} }} }} }} }}
  output {{ name: "{y}" type {{ tensor_type {{ elem_type: 1 shape {{ {shape} }} }} }} }}
}}
"""


whole = ""
for k in range(n):
    nodes, inits = block(k, "x", "y")
    with open(f"{d}/blocks/block_{k:02d}.textproto", "w") as f:
        f.write(model(f"block_{k:02d}", nodes + inits, "x", "y"))
    nodes, inits = block(k, "x" if k == 0 else f"t{k}", "y" if k == n - 1 else f"t{k + 1}")
    whole += nodes + inits
with open(f"{d}/whole.textproto", "w") as f:
    f.write(model("whole", whole, "x", "y"))
rng.uniform(-1, 1, (1, 8, D)).astype(np.float32).tofile(f"{d}/x.bin")
