# Convolutions with a dilation as wide as the feature map (DeepLab's ASPP) and their wide pads.
# atc drops the kernel taps that only ever read padding (prune-conv-taps: dilation 24 on 14x14
# is a 1x1 convolution, and a 1-D one likewise); a dilated convolution whose padding oneDNN's
# AVX2 kernel cannot take runs on a zero-bordered copy of its input there (msame --debug names
# it), where it had fallen to oneDNN's reference kernel (1.4 s a run on DeepLabV3's ASPP).
# Every output matches a float64 numpy loop over the ONNX definition, natively and, on a CPU
# with more, under the AVX2 cap.
PY=/usr/bin/python3
$PY -c "import onnx" 2>/dev/null || skip "needs python3-onnx (scripts/install-deps.sh --test installs it)"
$PY - <<'PYEOF' || fail "could not write the models"
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
rng = np.random.default_rng(34)

def conv(x, w, b, d, pads):  # ONNX Conv, group 1, stride 1, float64
    sp = x.ndim - 2
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pads[i], pads[sp + i]) for i in range(sp)])
    out = [xp.shape[2 + i] - d * (w.shape[2 + i] - 1) for i in range(sp)]
    y = np.zeros((x.shape[0], w.shape[0]) + tuple(out))
    for tap in np.ndindex(*w.shape[2:]):
        sl = tuple(slice(tap[i] * d, tap[i] * d + out[i]) for i in range(sp))
        y += np.einsum("nc...,oc->no...", xp[(slice(None), slice(None)) + sl], w[(slice(None), slice(None)) + tap])
    return y + (0 if b is None else b.reshape((1, -1) + (1,) * sp))

def write(name, xs, ws, d, pads, bias):
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal(ws).astype(np.float32)
    b = rng.standard_normal(ws[0]).astype(np.float32) if bias else None
    inits = [numpy_helper.from_array(w, "w")] + ([numpy_helper.from_array(b, "b")] if bias else [])
    sp = len(xs) - 2
    node = helper.make_node("Conv", ["x", "w"] + (["b"] if bias else []), ["y"], name="conv",
                            dilations=[d] * sp, pads=pads, kernel_shape=list(ws[2:]))
    g = helper.make_graph([node], name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(xs))],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    save(m, name + ".onnx")
    np.save(name + "_x.npy", x)
    np.save(name + "_want.npy", conv(x.astype(np.float64), w.astype(np.float64),
                                     None if b is None else b.astype(np.float64), d, pads))

write("d24", (1, 16, 14, 14), (8, 16, 3, 3), 24, [24, 24, 24, 24], True)   # -> 1x1
write("d12", (1, 16, 14, 14), (8, 16, 3, 3), 12, [12, 12, 12, 12], True)   # every tap read somewhere
write("d4", (1, 8, 10, 9), (8, 8, 3, 3), 4, [4, 3, 4, 5], False)           # asymmetric pads
write("d8_1d", (1, 4, 6), (4, 4, 3), 8, [8, 8], True)                      # 1-D -> one tap
PYEOF
pass() {  # pass TAG: convert and run every model, compare with numpy
  for name in d24 d12 d4 d8_1d; do
    run atc --model=$name.onnx --framework=5 --output=$name$1 --soc_version=Ascend310P3 --precision_mode=force_fp32 --log=info
    expect_exit 0
    case $name in
      d24) expect_stderr_contains "prune-conv-taps: Conv 'conv' kernel 3x3 -> 1x1" ;;
      d8_1d) expect_stderr_contains "prune-conv-taps: Conv 'conv' kernel 3 -> 1" ;;
      *) expect_stderr_not_contains "prune-conv-taps" ;;
    esac
    run msame --model $name$1.om --input ${name}_x.npy --output out$1_$name --outfmt BIN --debug true
    expect_exit 0
    expect_stdout_not_contains "ref:any"
    expect_close_npy "$(ls out$1_$name/*/$name$1_output_0.bin)" ${name}_want.npy 1e-4
  done
}
pass ""
grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo || exit 0
tag=""
if grep -qw avx512f /proc/cpuinfo; then  # the AVX2 paths on a CPU with more
  export ONEDNN_MAX_CPU_ISA=AVX2
  tag=_avx2
  pass $tag
fi
run msame --model d12$tag.om --input d12_x.npy --debug true
expect_exit 0
expect_stdout_contains "jit:avx2:zero-bordered"
