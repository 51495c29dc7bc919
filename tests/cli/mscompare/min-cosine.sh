# --min_cosine X: a tensor within tolerance still fails when its cosine similarity is below X
# (the verdict the precision workflow uses for fp16 drift); the fail reason says so. Two equal
# all-zero tensors (cosine NaN) pass. A value outside [-1, 1] is an error (exit 2).
/usr/bin/python3 - <<'PY'
import numpy as np
g = np.linspace(-1, 1, 64, dtype=np.float32)
np.save("golden.npy", g)
np.save("flipped.npy", np.where(np.arange(64) % 3 == 0, -g, g).astype(np.float32))
np.save("zeros_a.npy", np.zeros(8, np.float32)); np.save("zeros_b.npy", np.zeros(8, np.float32))
PY
run mscompare -m flipped.npy -g golden.npy -out a --atol=10 --rtol=10
expect_exit 0
run mscompare -m flipped.npy -g golden.npy -out b --atol=10 --rtol=10 --min_cosine=0.99
expect_exit 1
expect_stdout_contains "is below --min_cosine 0.99"
expect_stdout_line "min cosine            0.99"
run mscompare -m flipped.npy -g golden.npy -out c --atol=10 --rtol=10 --min_cosine=0.1 -alg MaxAbsoluteError
expect_exit 0
grep -q "CosineSimilarity" c/result_*.csv && fail "cosine column printed although -alg did not ask for it"
run mscompare -m zeros_a.npy -g zeros_b.npy -out d --min_cosine=0.99
expect_exit 0
run mscompare -m flipped.npy -g golden.npy -out e --min_cosine=1.5
expect_exit 2
expect_stderr_contains "--min_cosine"
expect_no_file e
