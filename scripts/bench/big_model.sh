#!/usr/bin/env bash
# big_model.sh: a model too big for one file, end to end (docs/scale-out.md). Generates an ONNX
# model of LAYERS MatMul layers of DIM x DIM fp32 weights (default 36 x 4608^2: 3.06 GB) with its
# weights in external data, converts it with atc --external_weight=1 (weights to files beside the
# OM), runs it under msame, checks the output against numpy's, and prints peak RSS of atc and
# msame against the weight bytes. Too big for CI: its figures go in the notes and the docs.
#   LAYERS (36), DIM (4608), BUILD_DIR (build), BENCH_OUT (a temp folder; needs ~2x the weights
#   on disk)
# Exit status 1 when the output misses cosine >= 0.99999 or msame's peak RSS reaches 1.2x the
# weight bytes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
layers=${LAYERS:-36}
dim=${DIM:-4608}
out=${BENCH_OUT:-$(mktemp -d)}
mkdir -p "$out"
[ -x "$build/bin/atc" ] && [ -x "$build/bin/msame" ] || { echo "build first: scripts/test.sh" >&2; exit 1; }

echo "generating $layers x [$dim, $dim] fp32 MatMul weights..."
/usr/bin/python3 - "$out" "$layers" "$dim" <<'PY'
import sys, numpy as np, onnx
from onnx import helper, TensorProto, numpy_helper
out, layers, dim = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(0)
x = rng.uniform(-1, 1, (1, dim)).astype(np.float32)
y = x.astype(np.float64)
nodes, inits, prev = [], [], "x"
for i in range(layers):
    w = (rng.standard_normal((dim, dim), dtype=np.float32) / np.sqrt(dim)).astype(np.float32)
    y = y @ w.astype(np.float64)
    inits.append(numpy_helper.from_array(w, f"w{i}"))
    name = "y" if i == layers - 1 else f"h{i}"
    nodes.append(helper.make_node("MatMul", [prev, f"w{i}"], [name], name=f"mm{i}"))
    prev = name
g = helper.make_graph(nodes, "big", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, dim])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, dim])], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
onnx.save_model(m, f"{out}/big.onnx", save_as_external_data=True, all_tensors_to_one_file=True,
                location="big.onnx.data", size_threshold=0)
x.tofile(f"{out}/x.bin")
y.astype(np.float32).tofile(f"{out}/ref.bin")
PY
weights=$((layers * dim * dim * 4))
peak() { sed -n 's/^\s*Maximum resident set size (kbytes): //p' "$1"; }
rm -rf "$out/om" "$out/o"
mkdir -p "$out/om"
/usr/bin/time -v "$build/bin/atc" --model="$out/big.onnx" --framework=5 --output="$out/om/big" \
  --soc_version=Ascend910B1 --precision_mode=force_fp32 --external_weight=1 \
  >"$out/atc.log" 2>"$out/atc.time"
/usr/bin/time -v "$build/bin/msame" --model "$out/om/big.om" --input "$out/x.bin" \
  --output "$out/o" >"$out/msame.log" 2>"$out/msame.time"
cos=$(/usr/bin/python3 -c "
import numpy as np, glob
a = np.fromfile(glob.glob('$out/o/*/big_output_0.bin')[0], np.float32).astype(np.float64)
b = np.fromfile('$out/ref.bin', np.float32).astype(np.float64)
print(f'{a @ b / (np.linalg.norm(a) * np.linalg.norm(b)):.7f}')")
om_bytes=$(stat -c %s "$out/om/big.om")
files=$(find "$out/om/weight" -type f | wc -l)
atc_kb=$(peak "$out/atc.time")
msame_kb=$(peak "$out/msame.time")
awk -v w="$weights" -v a="$atc_kb" -v m="$msame_kb" -v om="$om_bytes" -v f="$files" -v c="$cos" \
  -v t="$(sed -n 's/^Inference time: //p' "$out/msame.log")" 'BEGIN {
  printf "weights %.2f GB in %d files beside a %d-byte OM\n", w / 1e9, f, om
  printf "atc peak RSS %.2f GB (%.2f x weights)\n", a * 1024 / 1e9, a * 1024 / w
  printf "msame peak RSS %.2f GB (%.2f x weights), inference %s, cosine vs numpy %s\n",
    m * 1024 / 1e9, m * 1024 / w, t, c
  exit !(c >= 0.99999 && m * 1024 < 1.2 * w) }'
