# The runtime places its buffers at the activation offsets the OM records (output_i), and the
# OM's plan shares buffers in place the way the runtime does (Reshape-like outputs, a Conv
# writing into a residual that dies there), so nearly every buffer follows the plan: all but
# the model input (kept across --loop runs) and the conversions the CPU adds. Outputs equal
# the in-memory run of the same model.
run atc --model="$ROOT/models/resnet_mini.onnx" --framework=5 --output=m --soc_version=Ascend310P3 --precision_mode=force_fp32
expect_exit 0
run atc --mode=6 --om=m.om
om_arena=$(sed -n 's/.*arena\[\([0-9]*\) B\].*/\1/p' "$STDOUT")
run msame --model m.om --output out --debug true --random_input 3
expect_exit 0
line=$(grep -o 'arena [0-9]* bytes ([0-9]* of [0-9]* buffers' "$STDOUT")
[ -n "$line" ] || fail "no arena line"
read -r _ rt_arena _ placed _ total _ <<<"$(echo "$line" | tr '(' ' ')"
[ "$placed" -ge $((total - 2)) ] || fail "only $placed of $total buffers follow the OM plan"
# The runtime arena is the OM's plus the model input's buffer (1x3x224x224 fp32, aligned).
[ "$rt_arena" -le $((om_arena + 602112 + 4096)) ] || fail "runtime arena $rt_arena, OM arena $om_arena"
run msame --model "$ROOT/models/resnet_mini.onnx" --output ref --random_input 3
expect_exit 0
cmp out/*/m_output_0.bin ref/*/resnet_mini_output_0.bin >/dev/null 2>&1 ||
  /usr/bin/python3 - out/*/m_output_0.bin ref/*/resnet_mini_output_0.bin <<'PY' || fail "outputs differ"
import sys, numpy as np
a = np.fromfile(sys.argv[1], np.float32); b = np.fromfile(sys.argv[2], np.float32)
sys.exit(0 if a.shape == b.shape and np.allclose(a, b, rtol=1e-4, atol=1e-5) else 1)
PY
