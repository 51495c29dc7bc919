# A FIFO in a dump folder (named like a tensor or a dump file) is refused with a clear error,
# not opened for reading (which would block until a writer appears: a hang).
mkdir -p g m
/usr/bin/python3 -c "
import numpy as np
np.save('g/conv.0.1.npy', np.ones(4, np.float32)); np.save('m/conv.0.1.npy', np.ones(4, np.float32))"
mkfifo m/relu.0.2.npy
mkfifo g/relu.0.2.npy
run timeout 20 mscompare -m m -g g -out out
[ "$STATUS" -ne 124 ] || fail "mscompare hung on a FIFO"
expect_exit 2
expect_stderr_contains "E13001"
expect_stderr_contains "relu.0.2.npy"
expect_stderr_contains "not a regular file"
expect_no_file out
rm m/relu.0.2.npy g/relu.0.2.npy
mkfifo m/Relu.relu.1.0.2
run timeout 20 mscompare -m m -g g -out out
[ "$STATUS" -ne 124 ] || fail "mscompare hung on a FIFO named like a dump file"
expect_exit 2
expect_stderr_contains "E13001"
expect_no_file out
