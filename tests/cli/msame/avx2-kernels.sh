# On an AVX2 CPU (nChw8c activations) the runtime's own kernels serve resnet_mini's 3x3
# convolutions at 28x28 and up (Winograd) and at 7x7 (a matrix product), and --debug names
# them; ASC_CONV_WINOGRAD=0 and ASC_CONV_GEMM=0 give those convolutions back to oneDNN. Every
# way, the outputs equal the in-memory run of the ONNX model to float rounding.
# On an AVX-512 CPU, oneDNN's ISA cap (ONEDNN_MAX_CPU_ISA=AVX2) gives atc and msame the AVX2
# paths (the runtime chooses its layout and kernels from oneDNN's effective ISA).
if ! grep -qw avx2 /proc/cpuinfo || ! grep -qw fma /proc/cpuinfo; then
  skip "needs an AVX2 + FMA CPU"
fi
grep -qw avx512f /proc/cpuinfo && export ONEDNN_MAX_CPU_ISA=AVX2
run atc --model="$ROOT/models/resnet_mini.onnx" --framework=5 --output=m --soc_version=Ascend310P3 --precision_mode=force_fp32
expect_exit 0
run msame --model "$ROOT/models/resnet_mini.onnx" --output ref --random_input 3
expect_exit 0
close() {  # close A B: the two .bin outputs agree to float rounding
  /usr/bin/python3 - "$1" "$2" <<'PY' || fail "outputs differ: $1 $2"
import sys, numpy as np
a = np.fromfile(sys.argv[1], np.float32); b = np.fromfile(sys.argv[2], np.float32)
sys.exit(0 if a.shape == b.shape and np.allclose(a, b, rtol=1e-4, atol=1e-5) else 1)
PY
}
run msame --model m.om --output own --debug true --random_input 3
expect_exit 0
expect_stdout_contains "winograd_2x2_3x3:avx2:nChw8c"
expect_stdout_contains "gemm_conv:avx2:nChw8c"
close own/*/m_output_0.bin ref/*/resnet_mini_output_0.bin
run env ASC_CONV_WINOGRAD=0 ASC_CONV_GEMM=0 msame --model m.om --output onednn --debug true --random_input 3
expect_exit 0
expect_stdout_not_contains "winograd_2x2_3x3:avx2"
expect_stdout_not_contains "gemm_conv:avx2"
close onednn/*/m_output_0.bin ref/*/resnet_mini_output_0.bin
# The Winograd kernel's threads each transform their own weights by default; shared ones
# (ASC_WINOGRAD_OWN_U=0) give the same outputs.
run env ASC_WINOGRAD_OWN_U=0 msame --model m.om --output shared_u --threads 2 --random_input 3
expect_exit 0
close shared_u/*/m_output_0.bin ref/*/resnet_mini_output_0.bin
run msame --model m.om --output own_u --threads 2 --random_input 3
expect_exit 0
close own_u/*/m_output_0.bin shared_u/*/m_output_0.bin
