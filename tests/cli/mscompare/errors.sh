# Errors exit 2 with a code, say what to do, and write no CSV.
mkdir -p g m
/usr/bin/python3 -c "
import numpy as np
np.save('g/conv.0.1.npy', np.ones(4, np.float32)); np.save('m/conv.0.1.npy', np.ones(4, np.float32))"
run mscompare -m missing -g g -out out
expect_exit 2
expect_stderr_contains "E13001"
expect_stderr_contains "does not exist"
expect_no_file out
run mscompare -m m -g g -out out --no_such_option=1
expect_exit 2
expect_stderr_contains "E10001"
expect_stderr_contains "no_such_option"
run mscompare -g g -out out
expect_exit 2
expect_stderr_contains "--my_dump_path (or --comparison) is required"
run mscompare -m m -g g -out out -alg cosine
expect_exit 2
expect_stderr_contains "not a metric"
run mscompare -m m -g g -out out --atol=-1
expect_exit 2
expect_stderr_contains "--atol"
run mscompare -m m -g g/conv.0.1.npy -out out
expect_exit 2
expect_stderr_contains "two folders or two files"
# a corrupted dump file in the folder
printf '\x40\x00\x00\x00\x00\x00\x00\x00junk' > m/Conv2D.conv.1.0.1700000000000001
run mscompare -m m -g g -out out
expect_exit 2
expect_stderr_contains "E13005"
expect_stderr_contains "Conv2D.conv.1.0.1700000000000001"
expect_no_file out
run mscompare -m m -g g -out out --format=json
expect_exit 2
expect_stdout_contains '"code": "E13005"'
expect_no_file out
