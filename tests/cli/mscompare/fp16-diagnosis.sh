# A failing fp16 tensor whose golden values fp16 cannot represent gets a diagnosis in its fail
# reason: underflow (every |y| below fp16's smallest normal number) or overflow (above 65504).
# A failing fp32 tensor gets none.
/usr/bin/python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(3)
tiny = (rng.standard_normal(256) * 1e-7).astype(np.float32)
np.save("tiny_golden.npy", tiny)
np.save("tiny_fp16.npy", tiny.astype(np.float16))
big = (rng.standard_normal(64) * 1e5).astype(np.float32)
np.save("big_golden.npy", big)
np.save("big_fp16.npy", np.clip(big, -65504, 65504).astype(np.float16))
np.save("off_fp32.npy", (tiny + 1).astype(np.float32))
PY
run mscompare -m tiny_fp16.npy -g tiny_golden.npy -out a --min_cosine=0.99
expect_exit 1
expect_stdout_contains "fp16 underflow"
run mscompare -m big_fp16.npy -g big_golden.npy -out b
expect_exit 1
expect_stdout_contains "fp16 overflow"
run mscompare -m off_fp32.npy -g tiny_golden.npy -out c
expect_exit 1
expect_stdout_not_contains "fp16 underflow"
