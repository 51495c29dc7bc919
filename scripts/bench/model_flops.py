#!/usr/bin/python3
"""model_flops.py MODEL.onnx: the FLOPs of one inference, counted as 2 x the multiply-accumulates
of Conv, ConvTranspose, Gemm and MatMul (the rest -- activations, pooling, adds -- is left out,
as is usual for such figures). Shapes come from ONNX shape inference; a dynamic input dim is
taken as 1. Prints "flops=<n> macs=<n> nodes=<counted>/<total>"; exits 1 if a counted node's
shape is unknown. Used by scripts/bench/run.sh (python3-onnx)."""
import sys

import onnx
from onnx import shape_inference


def dims(vi):
    return [d.dim_value if d.HasField("dim_value") else 1 for d in vi.type.tensor_type.shape.dim]


def main(path):
    model = onnx.load(path, load_external_data=False)
    for i in model.graph.input:  # fix dynamic dims at 1 before inference
        for d in i.type.tensor_type.shape.dim:
            if not d.HasField("dim_value"):
                d.dim_value = 1
    model = shape_inference.infer_shapes(model)
    g = model.graph
    shapes = {v.name: dims(v) for v in list(g.input) + list(g.value_info) + list(g.output)}
    for t in g.initializer:
        shapes[t.name] = list(t.dims)
    macs = 0
    counted = 0
    for n in g.node:
        if n.op_type not in ("Conv", "ConvTranspose", "Gemm", "MatMul"):
            continue
        if any(x not in shapes for x in list(n.input[:2]) + [n.output[0]]):
            sys.exit("model_flops: no shape for %s (%s)" % (n.name, n.op_type))
        a, b, y = shapes[n.input[0]], shapes[n.input[1]], shapes[n.output[0]]
        attrs = {x.name: onnx.helper.get_attribute_value(x) for x in n.attribute}
        if n.op_type == "Conv":  # W: [Cout, Cin/group, k...]; each output element: Cin/group * prod(k) MACs
            k = 1
            for d in b[1:]:
                k *= d
            out = 1
            for d in y:
                out *= d
            macs += out * k
        elif n.op_type == "ConvTranspose":  # W: [Cin, Cout/group, k...]; each input element feeds Cout/group * prod(k)
            k = 1
            for d in b[1:]:
                k *= d
            inp = 1
            for d in a:
                inp *= d
            macs += inp * k
        elif n.op_type == "Gemm":
            kdim = a[0] if attrs.get("transA", 0) else a[1]
            macs += y[0] * y[1] * kdim
        else:  # MatMul: the output's elements times the shared dim
            out = 1
            for d in y:
                out *= d
            macs += out * a[-1]
        counted += 1
    print("flops=%d macs=%d nodes=%d/%d" % (2 * macs, macs, counted, len(g.node)))


if __name__ == "__main__":
    main(sys.argv[1])
