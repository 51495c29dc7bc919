# Every metric matches a float64 numpy computation of the msaccucmp formulas, to the printed
# precision, on random tensors and edge cases (zeros, scalars, NaN/Inf, int, bool, fp16,
# big-endian, Fortran order).
run /usr/bin/python3 "$ROOT/tests/testkit/mscompare_reference.py" ref
expect_exit 0
expect_stdout_contains " 0 disagree"
