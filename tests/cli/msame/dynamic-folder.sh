# Beyond the real msame: a folder of .npy inputs of different batch sizes runs through one
# dynamic-batch OM (each file's shape picks its profile) and msame reports the latency per shape.
MODEL="$ROOT/models/resnet_mini.onnx"
run atc --model="$MODEL" --framework=5 --soc_version=Ascend310P3 --output=dyn \
  --input_shape="input:-1,3,224,224" --dynamic_batch_size="1,2,4"
expect_exit 0
mkdir in
/usr/bin/python3 - <<'PY' || fail "numpy could not write the inputs"
import numpy as np
rng = np.random.default_rng(3)
for i, b in enumerate([1, 2, 4, 1, 2]):
    np.save(f"in/{i}_b{b}.npy", rng.uniform(-1, 1, (b, 3, 224, 224)).astype(np.float32))
PY
run msame --model dyn.om --input in --output out
expect_exit 0
expect_stdout_contains "Inference average time for input shape [1,3,224,224]:"
expect_stdout_contains "ms (2 runs)"
expect_stdout_contains "Inference average time for input shape [4,3,224,224]:"
expect_stdout_contains "ms (1 runs)"
[ "$(find out -name '*_output_0.bin' | wc -l)" -eq 5 ] || fail "expected 5 outputs"
# A batch outside the profiles stops the run with the list.
/usr/bin/python3 -c "import numpy as np; np.save('in/9_b3.npy', np.zeros((3, 3, 224, 224), np.float32))"
run msame --model dyn.om --input in --output out2
expect_exit 1
expect_stdout_contains "1, 2, 4"
