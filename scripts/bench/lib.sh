# lib.sh: what the benchmark scripts share (sourced, not run).
# The ten benchmark models of scripts/bench/export_models.py, in table order.
BENCH_MODEL_NAMES=(resnet18 resnet50 mobilenet_v2 squeezenet1_1 shufflenet_v2_x1_0 efficientnet_b0
  densenet121 googlenet transformer unet)
# median: the median of the numbers on stdin, one per line.
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
