#!/usr/bin/python3
"""Regenerates the small ONNX models under tests/data with Debian's python3-onnx.

Run with /usr/bin/python3 (the python3 first on PATH may not see Debian's packages):
    /usr/bin/python3 scripts/gen_test_models.py
The outputs are checked in; the build never runs this script.
"""
import copy
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data")
rng = np.random.default_rng(7767517)


def save(model, name, **kw):
    onnx.checker.check_model(model)
    path = os.path.join(OUT, name)
    onnx.save(model, path, **kw)
    print("wrote", os.path.relpath(path))


def model(nodes, inputs, outputs, inits=(), opset=13, name="g"):
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="asc-tools-tests")
    m.ir_version = 8
    return m


def f32(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def weight(name, shape):
    return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32) * 0.1, name)


def tiny_conv(opset=13):
    nodes = [
        helper.make_node("Conv", ["input", "w", "b"], ["c"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["output"], name="relu1"),
    ]
    return model(nodes, [f32("input", [1, 3, 8, 8])], [f32("output", [1, 4, 8, 8])],
                 [weight("w", (4, 3, 3, 3)), weight("b", (4,))], opset=opset)


def main():
    os.makedirs(OUT, exist_ok=True)
    base = tiny_conv()
    save(base, "tiny_conv.onnx")
    save(tiny_conv(opset=7), "tiny_conv_opset7.onnx")

    # An op asc-tools has no mapping for (E2002): Loop needs a subgraph, which asc-tools does not
    # import. (This was GridSample until issue 14 mapped it, then Unique until Unique folded on
    # constant inputs; the node keeps its name.)
    nodes = [helper.make_node("Loop", ["input"], ["output"], name="uq_3")]
    save(model(nodes, [f32("input", [1, 1, 4, 4])], [f32("output", ["n"])], opset=16),
         "unsupported_op.onnx")

    # A dynamic batch dim: needs --input_shape.
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="relu")]
    save(model(nodes, [f32("x", ["batch", 3, 4, 4])], [f32("y", ["batch", 3, 4, 4])]),
         "dynamic_batch.onnx")

    # PyTorch-style flatten: Shape -> Gather -> Unsqueeze -> Concat -> Reshape, all folded.
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], name="shape"),
        helper.make_node("Gather", ["s", "zero"], ["n"], name="gather", axis=0),
        helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"], name="unsq"),
        helper.make_node("Concat", ["n1", "minus1"], ["newshape"], name="concat", axis=0),
        helper.make_node("Reshape", ["x", "newshape"], ["flat"], name="reshape"),
        helper.make_node("Gemm", ["flat", "fw", "fb"], ["y"], name="fc", transB=1),
    ]
    inits = [numpy_helper.from_array(np.array(0, dtype=np.int64), "zero"),
             numpy_helper.from_array(np.array([0], dtype=np.int64), "axes0"),
             numpy_helper.from_array(np.array([-1], dtype=np.int64), "minus1"),
             weight("fw", (10, 48)), weight("fb", (10,))]
    save(model(nodes, [f32("x", [2, 3, 4, 4])], [f32("y", [2, 10])], inits), "shape_chain.onnx")

    # The same weights stored as external data beside the model.
    m = copy.deepcopy(base)
    data_path = os.path.join(OUT, "tiny_external.onnx.data")
    if os.path.exists(data_path):
        os.remove(data_path)  # onnx.save appends to an existing data file
    onnx.save(m, os.path.join(OUT, "tiny_external.onnx"), save_as_external_data=True,
              all_tensors_to_one_file=True, location="tiny_external.onnx.data",
              size_threshold=0)
    print("wrote tests/data/tiny_external.onnx (+ .data)")

    # Two inputs, for --input_shape tests.
    nodes = [helper.make_node("Add", ["a", "b"], ["y"], name="add")]
    save(model(nodes, [f32("a", [1, 3, 4, 4]), f32("b", [1, 3, 4, 4])], [f32("y", [1, 3, 4, 4])]),
         "two_inputs.onnx")

    # LayerNormalization exists from opset 17 on: at opset 13 it is an unknown op (E2002).
    nodes = [helper.make_node("LayerNormalization", ["x", "s"], ["y"], name="ln")]
    m = model(nodes, [f32("x", [2, 4])], [f32("y", [2, 4])],
              [numpy_helper.from_array(np.ones(4, np.float32), "s")])
    onnx.save(m, os.path.join(OUT, "layernorm_opset13.onnx"))  # the checker would refuse it
    print("wrote tests/data/layernorm_opset13.onnx")

    # A custom-domain op that --op_name_map can map onto a supported one (MyRelu:Relu).
    nodes = [helper.make_node("MyRelu", ["x"], ["y"], name="my_relu", domain="custom.ops")]
    m = helper.make_model(helper.make_graph(nodes, "g", [f32("x", [1, 4])], [f32("y", [1, 4])]),
                          opset_imports=[helper.make_opsetid("", 13),
                                         helper.make_opsetid("custom.ops", 1)])
    m.ir_version = 8
    onnx.save(m, os.path.join(OUT, "custom_relu.onnx"))  # the checker does not know MyRelu
    print("wrote tests/data/custom_relu.onnx")

    # Not an ONNX file at all.
    with open(os.path.join(OUT, "not_a_model.onnx"), "wb") as f:
        f.write(bytes(rng.integers(0, 256, 300, dtype=np.uint8)))
    print("wrote tests/data/not_a_model.onnx")


if __name__ == "__main__":
    main()
