#!/usr/bin/python3
"""om_weights.py OM PROTO_DIR OUT_DIR: reads every weight (Const op) of an .om by its
TensorDescriptor alone, as a model viewer would, and writes OUT_DIR/<op name>.npy with the
tensor's logical values. Independent of asc-tools' runtime and reader: the container is read with
struct, the ModelDef decoded by protoc into text, and only the descriptor's dtype, shape, layout,
data_offset, weight_size and origin_shape are used (docs/om-format.md, "Packed weights"):
  - a plain layout (ND, NCHW, ...): the shape is the tensor's;
  - a oneDNN format tag (outer dims as letters a, b, c, ..., upper-case when also blocked, then
    each inner block as <size><letter>): the shape is physical; the tensor's is origin_shape."""
import os
import re
import struct
import subprocess
import sys

import numpy as np

om, proto_dir, out = sys.argv[1], sys.argv[2], sys.argv[3]
data = open(om, "rb").read()
length32 = struct.unpack_from("<I", data, 76)[0]
length64 = struct.unpack_from("<Q", data, 184)[0]
wide = length32 == 0 and length64 != 0
base = 256
num = struct.unpack_from("<I", data, base)[0]
head, entry = (8, 24) if wide else (4, 12)
table = head + num * entry
parts = {}
for i in range(num):
    at = base + head + i * entry
    if wide:
        t, _, off, size = struct.unpack_from("<IIQQ", data, at)
    else:
        t, off, size = struct.unpack_from("<III", data, at)
    parts[t] = (base + table + off, size)
md_off, md_size = parts[0]
w_off = parts.get(1, (0, 0))[0]
text = subprocess.run(["protoc", "--decode=ge.proto.ModelDef", "-I" + proto_dir,
                       proto_dir + "/ge_ir.proto"], input=data[md_off:md_off + md_size],
                      stdout=subprocess.PIPE, check=True).stdout.decode("utf-8", "replace")


# A small reader of protobuf text format: messages become dicts of lists.
TOKEN = re.compile(r'\s*(?:([A-Za-z_][A-Za-z0-9_]*)|("(?:[^"\\]|\\.)*")|([-+0-9.eE]+)|(\{|\}|:))')


def parse(s):
    pos, stack = 0, [{}]
    key = None
    while True:
        m = TOKEN.match(s, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
        ident, string, number, punct = m.groups()
        cur = stack[-1]
        if punct == ":":
            continue
        if punct == "{":
            child = {}
            cur.setdefault(key, []).append(child)
            stack.append(child)
            key = None
        elif punct == "}":
            stack.pop()
        elif key is None and ident is not None:
            key = ident
        else:
            value = string[1:-1] if string else (number if number else ident)
            cur.setdefault(key, []).append(value)
            key = None
    return stack[0]


model = parse(text)
DTYPES = {"DT_FLOAT": np.float32, "DT_FLOAT16": np.float16, "DT_INT32": np.int32,
          "DT_INT64": np.int64, "DT_INT8": np.int8, "DT_UINT8": np.uint8, "DT_BOOL": np.bool_}
TAG = re.compile(r"^([A-Za-z]+)((?:[0-9]+[a-z])*)$")


def first(d, k, default=None):
    return d.get(k, [default])[0]


def decode(flat, layout, shape, origin):
    m = TAG.match(layout)
    if not origin or not m or sorted(m.group(1).lower()) != [chr(97 + i) for i in range(len(origin))]:
        return flat.reshape(shape)                       # a plain layout
    outer = [ord(c.lower()) - 97 for c in m.group(1)]
    inner = [(int(n), ord(c) - 97) for n, c in re.findall(r"([0-9]+)([a-z])", m.group(2))]
    phys = flat.reshape(shape)
    rank = len(origin)
    # Group the physical axes by dim: its outer axis first, then its inner blocks in order.
    axes, padded = [], []
    for d in range(rank):
        mine = [outer.index(d)] + [len(outer) + k for k, (_, dim) in enumerate(inner) if dim == d]
        axes += mine
        padded.append(int(np.prod([phys.shape[a] for a in mine])))
    full = phys.transpose(axes).reshape(padded)
    return full[tuple(slice(0, n) for n in origin)]


os.makedirs(out, exist_ok=True)
count = 0
for op in model["graph"][0].get("op", []):
    if first(op, "type") != "Const":
        continue
    value = [a for a in op.get("attr", []) if first(a, "key") == "value"][0]
    desc = first(first(first(value, "value"), "t"), "desc")
    dtype = DTYPES[first(desc, "dtype", "DT_FLOAT")]
    dims = [int(x) for x in first(desc, "shape", {}).get("dim", [])]
    attrs = {first(a, "key"): first(a, "value") for a in desc.get("attr", [])}
    origin = None
    if "origin_shape" in attrs:
        origin = [int(x) for x in first(attrs["origin_shape"], "list", {}).get("i", [])]
    at = w_off + int(first(desc, "data_offset", 0))
    size = int(first(desc, "weight_size", 0))
    flat = np.frombuffer(data[at:at + size], dtype=dtype)
    if flat.size != int(np.prod(dims)):
        sys.exit("%s: weight_size %d holds %d elements, its shape %s has %d" % (
            first(op, "name"), size, flat.size, dims, int(np.prod(dims))))
    arr = decode(flat, first(desc, "layout", "ND"), dims, origin)
    np.save(os.path.join(out, first(op, "name") + ".npy"), arr)
    count += 1
print("weights=%d" % count)
