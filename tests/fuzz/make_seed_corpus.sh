#!/usr/bin/env bash
# make_seed_corpus.sh BIN_DIR: regenerates the committed seed corpus (tests/fuzz/corpus/) from
# tests/data with the built tools in BIN_DIR (atc, and asc_make_dump from a normal build with
# tests). Every file stays small (< 64 KiB) so that the fuzzer mutates it quickly.
set -euo pipefail
bin=${1:?usage: make_seed_corpus.sh BIN_DIR}
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../data
c=$here/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$c"/{fuzz_onnx,fuzz_om,fuzz_npy,fuzz_bin,fuzz_dump,fuzz_fusion_rule,fuzz_json_options,fuzz_memory_config,fuzz_op_json,fuzz_aipp_config}

# ONNX: the bundled tiny models; the external-data one with its data after the separator.
for m in "$data"/*.onnx; do cp "$m" "$c/fuzz_onnx/"; done
{ cat "$data/tiny_external.onnx"; printf '\n--ASC-EXTERNAL-DATA--\n'; cat "$data/tiny_external.onnx.data"; } \
  > "$c/fuzz_onnx/tiny_external_with_data"

# OM: a few models compiled by atc, and their --mode=1 JSON for the fusion rule reader.
for m in tiny_conv shape_chain two_inputs layernorm_opset13 dynamic_batch; do
  extra=()
  [ "$m" = dynamic_batch ] && extra=(--input_shape=x:2,3,4,4)
  "$bin/atc" --model="$data/$m.onnx" --framework=5 --output="$tmp/$m" --soc_version=Ascend310 \
    "${extra[@]}" >/dev/null 2>&1 || { echo "atc failed on $m (skipped)" >&2; continue; }
  cp "$tmp/$m.om" "$c/fuzz_om/$m.om"
  "$bin/atc" --mode=1 --om="$tmp/$m.om" --json="$tmp/$m.json" >/dev/null
  cp "$tmp/$m.json" "$c/fuzz_fusion_rule/$m.json"
done
"$bin/atc" --model="$data/tiny_conv.onnx" --framework=5 --output="$tmp/fp16" \
  --soc_version=Ascend310 --precision_mode=force_fp16 >/dev/null && cp "$tmp/fp16.om" "$c/fuzz_om/"
# Both generations of CANN's own container (64-bit table, MODEL_INOUT_INFO; 32-bit with kernels).
/usr/bin/python3 "$here/../testkit/make_cann_om.py" "$here/../../libasccore/src/proto" "$tmp" &&
  cp "$tmp/cann8.om" "$tmp/cann5.om" "$c/fuzz_om/"

# .npy: one per dtype, plus big-endian, Fortran order, version 2 and a 0-d array.
python3 - "$c/fuzz_npy" "$tmp" <<'PY'
import struct, sys
out, tmp = sys.argv[1], sys.argv[2]
def npy(name, descr, shape, payload, fortran=False, version=1):
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        descr, "True" if fortran else "False",
        "".join("%d, " % s for s in shape) if len(shape) != 1 else "%d," % shape[0])
    hl = 10 if version == 1 else 12
    pad = (64 - (hl + len(d) + 1) % 64) % 64
    d = d + " " * pad + "\n"
    head = b"\x93NUMPY" + bytes([version, 0]) + (struct.pack("<H", len(d)) if version == 1 else struct.pack("<I", len(d)))
    open(f"{out}/{name}.npy", "wb").write(head + d.encode() + payload)
npy("f32_2x3", "<f4", (2, 3), struct.pack("<6f", 1, -2, 3.5, 0, 1e-8, 6e4))
npy("f16_4", "<f2", (4,), struct.pack("<4H", 0x3c00, 0xbc00, 0x7c00, 0x0001))
npy("f64_be", ">f8", (2,), struct.pack(">2d", 1.25, -7))
npy("i64_fortran", "<i8", (2, 2), struct.pack("<4q", 1, 2, 3, 4), fortran=True)
npy("i8_v2", "|i1", (3,), bytes([1, 255, 127]), version=2)
npy("u16_scalar", "<u2", (), struct.pack("<H", 7))
npy("bool_2x1", "|b1", (2, 1), bytes([1, 0]))
npy("i32_empty", "<i4", (0, 3), b"")
PY
# raw .bin: byte 0 dtype, byte 1 rank, then dims, then the data (see fuzz_bin.cpp).
printf '\x00\x02\x02\x02\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x80\x40' > "$c/fuzz_bin/f32_2x2"
printf '\x0a\x01\x03\x01\x00\x00\x00\xff\xff\xff\xff\x07\x00\x00\x00' > "$c/fuzz_bin/i32_3"
printf '\x01\x00\x00\x3c\x00\xbc\x00\x7c' > "$c/fuzz_bin/f16_flat"
printf '\x00\x00 1 2 3\n4.5 -6 7e3\n' > "$c/fuzz_bin/txt_rows"

# Dump files: written by tensorio::writeDumpFile through asc_make_dump.
if [ -x "$bin/asc_make_dump" ]; then
  "$bin/asc_make_dump" "$c/fuzz_dump/Conv2D.conv1.1.0.0000000000000001" conv1 "$c/fuzz_npy/f32_2x3.npy"
  "$bin/asc_make_dump" "$c/fuzz_dump/Relu.r.2.0.0000000000000002" r --original=relu_0 \
    "$c/fuzz_npy/f16_4.npy" "$c/fuzz_npy/i8_v2.npy"
fi

# atc's JSON option files and the text configurations.
printf '{"op_types": ["Relu"], "op_names": ["conv1"]}\n' > "$c/fuzz_json_options/op_blacklist.json"
printf '{"black-list": {"to-add": ["Conv2D"], "to-remove": ["Softmax"]}, "white-list": {"to-add": ["MatMul"]}}' \
  > "$c/fuzz_json_options/mixlist.json"
printf '{"gray-list": {"to-add": ["Add"]}}' > "$c/fuzz_json_options/gray.json"
printf '[memory_optimize]\nenable_memory_reuse = true  # default\nmemory_reuse_mb = 64\n' > "$c/fuzz_memory_config/on.ini"
printf '; reuse off\n[memory_optimize]\nenable_memory_reuse=false\n' > "$c/fuzz_memory_config/off.ini"
printf '# keep Relu separate\nfuse-conv-activation:off\nConvBatchnormFusionPass:off\n' > "$c/fuzz_memory_config/switch.cfg"
# opgen's op-definition JSON.
printf '[{"op": "AddReluCustom", "input_desc": [{"name": "x1", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "fp16"]}, {"name": "x2", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "fp16"]}], "output_desc": [{"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "fp16"]}]}, {"op": "LeakyReluCustom", "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}], "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}], "attr": [{"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.01"}]}]\n' \
  > "$c/fuzz_op_json/two_ops.json"
printf '[{"op": "AddCustom", "input_desc": [{"name": "x", "param_type": "optional", "format": ["ND"], "type": ["fp16"]}], "output_desc": [{"name": "y", "type": ["fp16"]}], "attr": [{"name": "k", "param_type": "optional", "type": "list_int", "default_value": [1, 2]}, {"name": "s", "param_type": "optional", "type": "str", "default_value": "a"}]}]\n' \
  > "$c/fuzz_op_json/attrs.json"
# AIPP configurations: the forms the CLI tests use.
printf 'aipp_op {\n  aipp_mode: static\n  input_format: YUV420SP_U8\n  csc_switch: true\n  matrix_r0c0: 256\n  matrix_r0c2: 359\n  matrix_r1c0: 256\n  matrix_r1c1: -88\n  matrix_r1c2: -183\n  matrix_r2c0: 256\n  matrix_r2c1: 454\n  input_bias_1: 128\n  input_bias_2: 128\n  mean_chn_0: 124\n  var_reci_chn_0: 0.017125\n}\n' \
  > "$c/fuzz_aipp_config/yuv420sp.cfg"
printf 'aipp_op {\n  aipp_mode: static\n  related_input_name: "z"\n  input_format: RGB888_U8\n  src_image_size_w: 12\n  src_image_size_h: 10\n  crop: true\n  load_start_pos_w: 2\n  load_start_pos_h: 1\n  crop_size_w: 6\n  crop_size_h: 7\n  padding: true\n  left_padding_size: 1\n  right_padding_size: 1\n  top_padding_size: 1\n  padding_value: 0.5\n}\n' \
  > "$c/fuzz_aipp_config/rgb888_crop_pad.cfg"
