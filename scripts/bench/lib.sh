# lib.sh: what the benchmark scripts share (sourced, not run).
# The ten benchmark models of scripts/bench/export_models.py, in table order.
BENCH_MODEL_NAMES=(resnet18 resnet50 mobilenet_v2 squeezenet1_1 shufflenet_v2_x1_0 efficientnet_b0
  densenet121 googlenet transformer unet)
# median: the median of the numbers on stdin, one per line.
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
# ensure_ort: installs the peer, onnxruntime-node at the version package-lock.json pins (npm ci,
# its install script off: the CPU build ships in the package), beside these scripts.
ensure_ort() {
  local dir
  dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  [ -d "$dir/node_modules/onnxruntime-node" ] && return 0
  echo "installing onnxruntime-node (benchmarks only)..." >&2
  (cd "$dir" && ONNXRUNTIME_NODE_INSTALL=skip ONNXRUNTIME_NODE_INSTALL_CUDA=skip \
    npm ci --no-audit --no-fund >/dev/null)
}
