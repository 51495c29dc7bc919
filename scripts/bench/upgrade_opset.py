#!/usr/bin/python3
"""upgrade_opset.py IN.onnx OUT.onnx OPSET: rewrites a model exported at opset 13-17 into the
form it takes at OPSET (18 to 21, what ONNX Runtime 1.20 reads), for the later-opset speed
figures (docs/benchmarks.md): the Reduce ops' axes attribute becomes an int64 input (opset 18),
Split without sizes gets num_outputs (18), and the default opset import is raised. Other ops
keep their form (their later versions only added types). Saved without onnx.checker: Debian's
onnx 1.12 knows opsets up to 17."""
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

src, dst, opset = sys.argv[1], sys.argv[2], int(sys.argv[3])
m = onnx.load(src)
g = m.graph
REDUCE = {"ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
          "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"}
made = 0
for n in g.node:
    if opset >= 18 and n.op_type in REDUCE:
        axes = [a for a in n.attribute if a.name == "axes"]
        if axes:
            name = "%s_axes_%d" % (n.name or n.op_type, made)
            made += 1
            g.initializer.append(numpy_helper.from_array(np.array(axes[0].ints, np.int64), name))
            n.attribute.remove(axes[0])
            while len(n.input) < 1:
                n.input.append("")
            n.input.append(name)
    if opset >= 18 and n.op_type == "Split" and len(n.input) < 2 and \
            not any(a.name == "split" for a in n.attribute):
        n.attribute.append(helper.make_attribute("num_outputs", len(n.output)))
for o in m.opset_import:
    if o.domain in ("", "ai.onnx"):
        o.version = opset
m.ir_version = max(m.ir_version, 9 if opset <= 20 else 10)
onnx.save(m, dst)
print("wrote %s at opset %d (%d Reduce axes moved to inputs)" % (dst, opset, made))
