#!/usr/bin/python3
"""make_cann_om.py PROTO_DIR OUT_DIR: writes .om files laid out as CANN's own ATC writes them, for
the reader's tests (docs/om-format.md, "Generations"), independently of asc-tools' writer:

  cann8.om   the CANN 8 generation: header length 0 and the uint64 model_length at byte 184, a
             64-bit partition table, MODEL_DEF, WEIGHTS_DATA, TBE_KERNELS, TASK_INFO and
             MODEL_INOUT_INFO; an fp16 Conv2D model for Ascend310B4 in CANN's spellings
  cann5.om   the older generation: the 32-bit length at byte 76 and a 32-bit table, with
             TBE_KERNELS and CUST_AICPU_KERNELS, header version 0x10000000
  cann8-*.om damaged copies of cann8.om (bad-input cases): a count of 2^32-1, a size past the
             file, overlapping partitions, an offset that wraps, a model_length that lies

The ModelDef is protobuf text encoded with protoc (ge_ir.proto from PROTO_DIR). The kernels and
task bytes are filler: no reader of ours runs them."""
import struct
import subprocess
import sys

proto_dir, out = sys.argv[1], sys.argv[2]
HDR = 256


def ints(name, values):
    return 'attr { key: "%s" value { list { %s val_type: VT_LIST_INT } } }' % (
        name, " ".join("i: %d" % v for v in values))


def attr(name, kind, value):
    v = '"%s"' % value if kind == "s" else str(value)
    return 'attr { key: "%s" value { %s: %s } }' % (name, kind, v)


def desc(name, dtype, layout, dims, extra=""):
    return '%s { name: "%s" dtype: %s layout: "%s" shape { %s } %s }' % (
        "{}", name, dtype, layout, " ".join("dim: %d" % d for d in dims), extra)


def td(field, name, dtype, layout, dims, extra=""):
    return desc(name, dtype, layout, dims, extra).replace("{}", field, 1)


# Weights: Conv2D's filter as CANN stores it (FRACTAL_Z fp16: C1*kH*kW, N/16, 16, C0=16) and its
# bias (fp16 [16]); offsets inside WEIGHTS_DATA.
w_bytes = 1 * 3 * 3 * 1 * 16 * 16 * 2
b_bytes = 16 * 2
weights = bytes((i * 7) & 0xFF for i in range(w_bytes)) + bytes(b_bytes)
model = "\n".join([
    'name: "conv_cann"', 'version: 1', 'custom_version: "1.11.z.0"',
    'graph { name: "conv_cann" input: "x:0" output: "conv1:0"',
    '  op { name: "x" type: "Data" id: 0 %s %s }' % (
        attr("index", "i", 0), td("output_desc", "x", "DT_FLOAT16", "NCHW", [1, 3, 8, 8])),
    '  op { name: "conv1_w" type: "Const" id: 1 attr { key: "value" value { t { %s } } } %s }' % (
        td("desc", "conv1_w", "DT_FLOAT16", "FRACTAL_Z", [9, 1, 16, 16],
           "weight_size: %d data_offset: 0" % w_bytes),
        td("output_desc", "conv1_w", "DT_FLOAT16", "FRACTAL_Z", [9, 1, 16, 16])),
    '  op { name: "conv1_b" type: "Const" id: 2 attr { key: "value" value { t { %s } } } %s }' % (
        td("desc", "conv1_b", "DT_FLOAT16", "ND", [16],
           "weight_size: %d data_offset: %d" % (b_bytes, w_bytes)),
        td("output_desc", "conv1_b", "DT_FLOAT16", "ND", [16])),
    '  op { name: "conv1" type: "Conv2D" id: 3 input: "x:0" input: "conv1_w:0" input: "conv1_b:0"',
    '       %s %s %s %s %s %s' % (ints("strides", [1, 1, 1, 1]), ints("pads", [1, 1, 1, 1]),
                                  ints("dilations", [1, 1, 1, 1]), attr("groups", "i", 1),
                                  attr("data_format", "s", "NCHW"), attr("offset_x", "i", 0)),
    '       %s %s }' % (td("input_desc", "x", "DT_FLOAT16", "NC1HWC0", [1, 1, 8, 8, 16]),
                        td("output_desc", "y", "DT_FLOAT16", "NC1HWC0", [1, 1, 8, 8, 16])),
    '  op { name: "Node_Output" type: "NetOutput" id: 4 input: "conv1:0" %s }' % (
        td("input_desc", "y", "DT_FLOAT16", "NCHW", [1, 16, 8, 8])),
    '}',
    attr("soc_version", "s", "Ascend310B4"), attr("framework_type", "s", "Onnx"),
    attr("atc_version", "s", "7.6.0.1.220"),
    attr("atc_cmdline", "s", "atc --model=conv.onnx --framework=5 --output=conv_cann "
         "--soc_version=Ascend310B4"),
    attr("memory_size", "i", 4096), attr("weight_size", "i", len(weights)),
    attr("stream_num", "i", 1), attr("event_num", "i", 0),
])
modeldef = subprocess.run(
    ["protoc", "--encode=ge.proto.ModelDef", "-I" + proto_dir, proto_dir + "/ge_ir.proto"],
    input=model.encode(), stdout=subprocess.PIPE, check=True).stdout
tbe = b"\x7fELF" + bytes(range(256)) * 4            # NPU kernel store (filler)
aicpu = b"AICPU" + bytes(27)
task = b"\x0a\x011" + bytes(13)                      # domi.ModelTaskDef (filler)
inout = b"INOUT" + bytes(11)


def header(name, version, length32, length64):
    h = bytearray(HDR)
    struct.pack_into("<III", h, 0, 0x444F4D49, HDR, version)
    struct.pack_into("<I", h, 76, length32)
    h[84:84 + len(name)] = name.encode()
    struct.pack_into("<II", h, 152, 2, 1)           # om_ir_version, model_num
    h[160:168] = b"1.11.z.0"                         # platform_version
    h[180] = 1                                       # platform_type
    struct.pack_into("<Q", h, 184, length64)
    return h


def cann8(parts, name="conv_cann"):
    table = struct.pack("<II", len(parts), 0)
    off = 0
    for t, b in parts:
        table += struct.pack("<IIQQ", t, 0, off, len(b))
        off += len(b)
    body = table + b"".join(b for _, b in parts)
    return bytes(header(name, 0x20000000, 0, len(body))) + body


def cann5(parts, name="conv_cann"):
    table = struct.pack("<I", len(parts))
    off = 0
    for t, b in parts:
        table += struct.pack("<III", t, off, len(b))
        off += len(b)
    body = table + b"".join(b for _, b in parts)
    return bytes(header(name, 0x10000000, len(body), 0)) + body


def save(name, data):
    with open("%s/%s.om" % (out, name), "wb") as f:
        f.write(data)


parts8 = [(0, modeldef), (1, weights), (3, tbe), (2, task), (8, inout)]
good8 = cann8(parts8)
save("cann8", good8)
save("cann5", cann5([(0, modeldef), (1, weights), (3, tbe), (4, aicpu), (2, task)]))


def patch(b, off, fmt, value):
    b = bytearray(b)
    struct.pack_into(fmt, b, off, value)
    return bytes(b)


entry = lambda i: HDR + 8 + 24 * i   # noqa: E731  (a CANN 8 table entry's offset)
save("cann8-count-huge", patch(good8, HDR, "<I", 0xFFFFFFFF))
save("cann8-size-past-end", patch(good8, entry(1) + 16, "<Q", len(good8) * 2))
save("cann8-offset-wrap", patch(good8, entry(2) + 8, "<Q", 0xFFFFFFFFFFFFFFF0))
# WEIGHTS_DATA moved onto MODEL_DEF's last bytes (the sizes still add up: a gap is left behind)
save("cann8-overlap", patch(good8, entry(1) + 8, "<Q", len(modeldef) - 8))
save("cann8-length-lies", patch(good8, 184, "<Q", len(good8)))
