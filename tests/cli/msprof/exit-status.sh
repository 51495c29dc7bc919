# msprof passes on the profiled command's exit status (128 + signal when it was killed), and
# still writes the profile folder.
run msprof --output=prof sh -c 'exit 3'
expect_exit 3
expect_stderr_contains "exited with status 3"
expect_file "$(ls prof/PROF_*/mindstudio_profiler_output/README.txt)"
run msprof --output=prof2 --application="kill -TERM \$\$"
expect_exit 143
run msprof --output=prof3 msame --model missing.om
expect_exit 1
expect_stdout_contains "Execute sample failed"
run msprof --output=prof4 no-such-command-xyz
expect_exit 127
expect_stderr_contains "cannot run 'no-such-command-xyz'"
