# Integers are compared exactly: int64 2^60 and 2^60 + 1 are the same double, and once compared
# "passed" with MaxAbsoluteError 0. Now the verdict fails (exit 1) and names the element.
/usr/bin/python3 -c "import numpy" 2>/dev/null || skip "numpy (python3-numpy) is needed"
/usr/bin/python3 - <<'PY'
import numpy as np
np.save("a.npy", np.array([2**60, 5, -7], dtype=np.int64))
np.save("b.npy", np.array([2**60 + 1, 5, -7], dtype=np.int64))
np.save("u.npy", np.array([2**64 - 1, 0], dtype=np.uint64))
np.save("v.npy", np.array([2**64 - 2, 0], dtype=np.uint64))
PY
run mscompare -m a.npy -g b.npy -out out
expect_exit 1
expect_stdout_contains "1 of 3 elements outside tolerance, first at element 0"
expect_stdout_line "failed                1"
grep -q "1.000000" out/result_*.csv || fail "MaxAbsoluteError is not 1 in $(cat out/result_*.csv)"
run mscompare -m u.npy -g v.npy -out out2
expect_exit 1
run mscompare -m a.npy -g a.npy -out out3
expect_exit 0
