# Unknown options and bad values are refused with an error code, before anything runs.
run msprof --bogus=1 --output=prof msame --model m.om
expect_exit 2
expect_stderr_contains "msprof: error E10001: unknown option '--bogus=1'"
expect_no_file prof
run msprof --aicpu=maybe --output=prof msame
expect_exit 2
expect_stderr_contains "E10001"
run msprof --output=prof
expect_exit 2
expect_stderr_contains "E10004"
run msprof --query=on --output=prof
expect_exit 2
expect_stderr_contains "E10055"
run msprof --help
expect_exit 0
expect_stdout_contains "Usage: msprof [options] <app> [args]"
