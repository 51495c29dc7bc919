#!/usr/bin/env bash
# make_golden_outputs.sh: runs ONNX Runtime (onnxruntime-node) on each tests/data/golden model
# with its input and writes <name>.ort.bin, the independent reference the runtime tests compare
# against. Also writes the demo model's input and reference.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
ensure_ort
g="$root/tests/data/golden"
for m in "$g"/*.onnx "$root/models/resnet_mini.onnx"; do
  n=$(basename "$m" .onnx)
  [ -f "$g/$n.input.npy" ] || node "$here/ort_tool.js" gen "$g/$n.input.npy" 1,3,224,224 20261130
  node "$here/ort_tool.js" run "$m" "$g/$n.input.npy" "$g/$n.ort" 1 1 >/dev/null
  mv "$g/$n.ort_0.bin" "$g/$n.ort.bin"
  echo "wrote tests/data/golden/$n.ort.bin"
done
