#!/usr/bin/env bash
# make_inputs.sh BIN OUT: builds the known-bad corpus's input files in OUT from the bundled
# models, so that only the small ONNX text files (tests/bad/onnx/*.textproto) are committed:
#   good.om (tiny_conv.onnx, fp32) and its damaged copies (om/*.om): truncated, bit-flipped with
#   fixed seeds, and with header or partition-table fields patched (checksum cleared, as files
#   from other writers have none, or recomputed, so the field checks themselves are reached);
#   onnx/*.onnx: the textprotos encoded with protoc, a 150-deep nest of If subgraphs, an
#   unknown opset, external-data files (w16.bin, a symlink out of the folder);
#   npy/*.npy with lying headers, bin/*.bin of the wrong size, dump/*/ folders whose dump files
#   have lying lengths, and good folders/files to pair them with.
set -euo pipefail
BIN=$1
OUT=$2
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=$HERE/../data
PY=/usr/bin/python3
rm -rf "$OUT"
mkdir -p "$OUT"/{om,onnx,npy,bin,dump,golden,conf}
cd "$OUT"

"$BIN/atc" --model="$DATA/tiny_conv.onnx" --framework=5 --output=good --soc_version=Ascend310 \
  --precision_mode=force_fp32 >atc.log 2>&1 || { cat atc.log; exit 1; }
cp "$DATA/tiny_conv.onnx" good.onnx

# --- damaged OMs -------------------------------------------------------------------------
$PY - good.om om <<'PY'
import random, struct, sys, zlib
src, out = sys.argv[1], sys.argv[2]
good = open(src, "rb").read()
size = len(good)
HDR = 256
def save(name, data):
    open(f"{out}/{name}.om", "wb").write(data)
def with_crc(b):  # recompute asc-tools' checksum ("ASCK" + CRC32 of every byte after the header)
    b = bytearray(b)
    b[12:16] = b"ASCK"
    b[16:20] = struct.pack("<I", zlib.crc32(bytes(b[HDR:])) & 0xffffffff)
    return bytes(b)
def no_crc(b):  # a file from another writer: no checksum at all
    b = bytearray(b)
    b[12:76] = bytes(64)
    return bytes(b)
def patch(b, off, fmt, value):
    b = bytearray(b)
    struct.pack_into(fmt, b, off, value)
    return bytes(b)
for n in (0, 3, 100, 255, 256, 259, 268):
    save(f"trunc-{n}", good[:n])
# The file's size depends on the CPU (atc packs the weights for it): cut relative to it.
save("trunc-half", good[:size // 2])
save("trunc-last", good[:size - 1])
for seed in (1, 2, 3, 4, 5):
    r = random.Random(seed)
    b = bytearray(good)
    for _ in range(3):
        p = r.randrange(HDR, size)
        b[p] ^= 1 << r.randrange(8)
    save(f"flip-seed{seed}", bytes(b))
save("magic", patch(good, 0, "<I", 0x12345678))
save("headsize", patch(good, 4, "<I", 1 << 30))
save("length-lies", patch(good, 76, "<I", size * 4))
save("appended", good + b"\0" * 64)
num = struct.unpack_from("<I", good, HDR)[0]
table_end = HDR + 4 + 12 * num
assert num >= 2, num
def entry(i):
    return HDR + 4 + 12 * i
def flip(b, p):
    b = bytearray(b)
    b[p] ^= 0x10
    return bytes(b)
# A flipped byte anywhere fails every reader (atc --mode=1/6, msame), which names the partition:
# MODEL_DEF (0), WEIGHTS_DATA (1: its first and last bytes), TASK_INFO (2), or the header.
def part_at(i):
    return table_end + struct.unpack_from("<I", good, entry(i) + 4)[0]
save("flip-modeldef", flip(good, part_at(0) + 5))
save("flip-weights", flip(good, part_at(1) + 3))
save("flip-weights-last", flip(good, part_at(1) + struct.unpack_from("<I", good, entry(1) + 8)[0] - 1))
save("flip-task", flip(good, part_at(2) + 1))
save("flip-name", flip(good, 84))
# An older asc-tools file (CRC32 of every byte after the header): verified whole at load too.
save("crc-flip-weights", flip(with_crc(good), part_at(1) + 3))
for mk, tag in ((no_crc, "nock"), (with_crc, "crc")):
    save(f"{tag}-part-count-huge", mk(patch(good, HDR, "<I", 0xFFFFFFFF)))
    save(f"{tag}-part-count-zero", mk(patch(good, HDR, "<I", 0)))
    save(f"{tag}-part-offset-past-end", mk(patch(good, entry(0) + 4, "<I", size * 2)))
    save(f"{tag}-part-size-past-end", mk(patch(good, entry(0) + 8, "<I", size * 2)))
    save(f"{tag}-part-wrap", mk(patch(patch(good, entry(1) + 4, "<I", 0xFFFFFFF0), entry(1) + 8, "<I", 0x20)))
    save(f"{tag}-part-type-unknown", mk(patch(good, entry(0), "<I", 77)))
    # MODEL_DEF bytes replaced by 0xFF: not a protobuf
    off, sz = struct.unpack_from("<II", good, entry(0) + 4)
    b = bytearray(good)
    b[table_end + off:table_end + off + sz] = b"\xff" * sz
    save(f"{tag}-modeldef-garbage", mk(bytes(b)))
    # every partition claims the whole file
    b = good
    for i in range(num):
        b = patch(b, entry(i) + 8, "<I", size)
    save(f"{tag}-parts-overlap", mk(b))
PY
printf 'IMOD but not a model\n' > om/text.om
# Files laid out as CANN's ATC writes them (both generations) and damaged CANN 8 copies.
$PY "$HERE/../testkit/make_cann_om.py" "$HERE/../../libasccore/src/proto" om
mkdir -p om/dir.om

# --- ONNX ------------------------------------------------------------------------------------
proto=/usr/include/onnx/onnx.proto
for t in "$HERE"/onnx/*.textproto; do
  protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < "$t" > "onnx/$(basename "$t" .textproto).onnx"
done
# If nested 150 deep (protobuf's default recursion limit is 100)
{
  echo 'ir_version: 8 opset_import { domain: "" version: 13 } graph { name: "g"'
  echo '  input { name: "c" type { tensor_type { elem_type: 9 shape { } } } }'
  echo '  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } } } } }'
  for i in $(seq 150); do
    echo "  node { op_type: \"If\" name: \"if$i\" input: \"c\" output: \"y\" attribute { name: \"then_branch\" type: GRAPH g { name: \"t$i\""
  done
  echo '  node { op_type: "Constant" name: "k" output: "y" attribute { name: "value" type: TENSOR t { data_type: 1 dims: 1 float_data: 1 } } }'
  echo '  output { name: "y" type { tensor_type { elem_type: 1 } } }'
  for i in $(seq 150); do echo '} } }'; done
  echo '}'
} > nested.textproto
protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < nested.textproto > onnx/nested-if-150.onnx
# opset 99 of the default domain
sed 's/version: 13/version: 99/' "$HERE/onnx/cycle.textproto" | sed 's/"Add" name: "a" input: "x" input: "z"/"Relu" name: "a" input: "x"/; /name: "b"/d' |
  protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" > onnx/opset-99.onnx
: > onnx/empty.onnx
head -c 300 good.om > onnx/om-bytes.onnx
head -c $(( $(stat -c %s good.onnx) / 2 )) good.onnx > onnx/truncated.onnx
$PY -c "import sys; sys.stdout.buffer.write(bytes(range(256)) * 8)" > onnx/random.onnx
head -c 16 /dev/zero > onnx/w16.bin
head -c 16 /dev/zero > outside.bin
ln -s ../outside.bin onnx/link.bin

# --- option files ---------------------------------------------------------------------------
mkdir -p conf
for v in empty:"" negative:-1 huge:99999999999999999999 text:abc zero:0 fraction:1.5; do
  printf '[memory_optimize]\nmemory_reuse_mb=%s\n' "${v#*:}" > "conf/mem-${v%%:*}.ini"
done
# AIPP configurations (--insert_op_conf, protobuf text) for tiny_conv's input x [1,3,8,8].
aipp() { printf 'aipp_op {\n  aipp_mode: %s\n%b}\n' "$2" "$3" > "conf/aipp-$1.cfg"; }
aipp unknown-field static '  input_format: RGB888_U8\n  brightness: 3\n'
aipp bad-enum static '  input_format: BGR_U8\n'
aipp mean-float static '  input_format: RGB888_U8\n  mean_chn_0: 1.5\n'
aipp no-format static ''
aipp width-range static '  input_format: RGB888_U8\n  src_image_size_w: 5000\n'
aipp crop-outside static '  input_format: RGB888_U8\n  crop: true\n  src_image_size_w: 10\n  load_start_pos_w: 4\n  crop_size_w: 8\n'
aipp yuv-odd-start static '  input_format: YUV420SP_U8\n  crop: true\n  src_image_size_w: 10\n  load_start_pos_w: 1\n'
aipp rank static '  input_format: RGB888_U8\n  related_input_rank: 3\n'
aipp name static '  input_format: RGB888_U8\n  related_input_name: "image"\n'
aipp dynamic dynamic '  max_src_image_size: 1000\n'
aipp resize static '  input_format: RGB888_U8\n  resize: true\n  resize_output_w: 8\n  resize_output_h: 8\n'

# --- tensors ---------------------------------------------------------------------------------
# tiny_conv's input: float32 [1,3,8,8] = 768 bytes
head -c 768 /dev/zero > bin/good.bin
head -c 767 /dev/zero > bin/short.bin
head -c 769 /dev/zero > bin/long.bin
: > bin/empty.bin
$PY - npy <<'PY'
import struct, sys
out = sys.argv[1]
def npy(name, header, data=b"", magic=b"\x93NUMPY", version=b"\x01\x00", hlen=None):
    h = header.encode()
    pad = 64 - (10 + len(h) + 1) % 64
    h = h + b" " * pad + b"\n"
    n = len(h) if hlen is None else hlen
    open(f"{out}/{name}.npy", "wb").write(magic + version + struct.pack("<H", n) + h + data)
f32 = bytes(768)
npy("good", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 8, 8), }", f32)
npy("shape-lies", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 8, 8), }", bytes(40))
npy("shape-too-big", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 8, 9), }", f32)
npy("dtype-f8", "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 3, 8, 8), }", f32 * 2)
npy("dtype-unknown", "{'descr': '<q9', 'fortran_order': False, 'shape': (1, 3, 8, 8), }", f32)
npy("dtype-object", "{'descr': '|O', 'fortran_order': False, 'shape': (1, 3, 8, 8), }", f32)
npy("big-endian", "{'descr': '>f4', 'fortran_order': False, 'shape': (1, 3, 8, 8), }", f32)
npy("fortran", "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 3, 8, 8), }", f32)
npy("header-len-past-end", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 8, 8), }", f32, hlen=60000)
npy("header-garbage", "{not a python dict at all", f32)
npy("bad-magic", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 8, 8), }", f32, magic=b"\x93NUMPX")
npy("version-9", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 8, 8), }", f32, version=b"\x09\x00")
npy("shape-overflow", "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }", f32)
npy("shape-negative", "{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 3, 8, 8), }", f32)
npy("shape-huge-dim", "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999, ), }", f32)
open(f"{out}/truncated.npy", "wb").write(b"\x93NUMPY\x01\x00")
PY

# --- dumps: good ones from npy files, then damaged copies -------------------------------------
"$BIN/asc_make_dump" golden/dump.bin conv npy/good.npy
mkdir -p dump/good golden/dir
cp golden/dump.bin dump/good/Conv2D.conv.1.0.1000000000000001
cp npy/good.npy golden/dir/conv.0.1000000000000001.npy
$PY - golden/dump.bin dump <<'PY'
import struct, sys
src, out = sys.argv[1], sys.argv[2]
good = open(src, "rb").read()
hlen = struct.unpack_from("<Q", good, 0)[0]
def save(name, data):
    import os
    os.makedirs(f"{out}/{name}", exist_ok=True)
    open(f"{out}/{name}/Conv2D.conv.1.0.1000000000000001", "wb").write(data)
save("len-past-end", struct.pack("<Q", len(good) * 10) + good[8:])
save("len-huge", struct.pack("<Q", 1 << 63) + good[8:])
save("len-max", struct.pack("<Q", (1 << 64) - 1) + good[8:])
save("len-zero", struct.pack("<Q", 0) + good[8:])
save("header-garbage", struct.pack("<Q", hlen) + b"\xff" * hlen + good[8 + hlen:])
save("data-short", good[:8 + hlen + 100])
save("data-long", good + bytes(64))
save("only-length", good[:8])
save("tiny", good[:5])
PY
echo "make_inputs: $(find "$OUT" -type f | wc -l) files in $OUT"
