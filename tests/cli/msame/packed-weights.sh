# atc stores the weights the CPU kernels rearrange packed for this CPU (a blocked layout alone,
# a Winograd one beside the plain data), and msame reads them in place (--debug says how many);
# on a CPU whose kernels want other layouts (AVX2 forced here) msame unpacks and reorders them
# instead and says so. Every path gives the results of the in-memory run of the same model.
# Some of oneDNN's weight layouts follow the thread count: atc packs for an idle machine's count,
# and msame takes fewer threads beside other work (and then reorders those); the test pins the
# count so that it holds on a loaded machine too.
export ASC_NUM_THREADS=$(nproc)
run atc --model="$ROOT/models/resnet_mini.onnx" --framework=5 --output=m --soc_version=Ascend310P3 --precision_mode=force_fp32
expect_exit 0
run msame --model m.om --output out --debug true --random_input 3
expect_exit 0
expect_stdout_contains "packed weights: "
in_place=$(sed -n 's/.*packed weights: \([0-9]*\) read in place.*/\1/p' "$STDOUT")
[ "${in_place:-0}" -gt 0 ] || fail "no packed weight read in place"
expect_stdout_not_contains "reordered at load"
# atc --mode=6 verifies the whole file, weights included.
run atc --mode=6 --om=m.om
expect_exit 0
expect_stdout_contains "checksum[verified]"
expect_stdout_contains "packed   info: count[$in_place], size["
alone=$(sed -n 's/^packed   info:.* alone\[\([0-9]*\)\].*/\1/p' "$STDOUT")
[ "${alone:-0}" -gt 0 ] || fail "no packed weight stored alone"
expect_stdout_contains "plain_size["
# Another CPU: the kernels AVX2 picks want other layouts than those packed for this one
# (unless this CPU is an AVX2 one, where they are the same and are read in place).
export ONEDNN_MAX_CPU_ISA=AVX2
run msame --model m.om --output avx2 --debug true --random_input 3
expect_exit 0
expect_stdout_contains "packed weights: "
run msame --model "$ROOT/models/resnet_mini.onnx" --output ref2 --random_input 3
expect_exit 0
cmp avx2/*/m_output_0.bin ref2/*/resnet_mini_output_0.bin >/dev/null 2>&1 ||
  /usr/bin/python3 - avx2/*/m_output_0.bin ref2/*/resnet_mini_output_0.bin <<'PY' || fail "AVX2 outputs differ"
import sys, numpy as np
a = np.fromfile(sys.argv[1], np.float32); b = np.fromfile(sys.argv[2], np.float32)
sys.exit(0 if a.shape == b.shape and np.allclose(a, b, rtol=1e-4, atol=1e-5) else 1)
PY
