# Two tensors of different lengths: a clear error (exit 2), no result file.
/usr/bin/python3 -c "
import numpy as np
np.save('a.npy', np.zeros(3, np.float32)); np.save('b.npy', np.zeros(4, np.float32))"
run mscompare -m a.npy -g b.npy -out out
expect_exit 2
expect_stderr_contains "E10001"
expect_stderr_contains "different lengths"
expect_stderr_contains "a.npy has 3 elements, b.npy has 4"
expect_no_file out
