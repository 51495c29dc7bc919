# The real msame's messages for bad command lines, with a non-zero exit.
run msame
expect_exit 1
expect_stdout_line "[ERROR] Invalid params"
expect_stdout_contains "usage: msame"
run msame --model m.om --bogus 1
expect_exit 1
expect_stdout_contains "unknown paramenter"
run msame --model model.txt
expect_exit 1
expect_stdout_contains "input model file type is not .om"
run msame --model m.om --dump true --profiler true
expect_exit 1
expect_stdout_contains "E10055"
expect_stdout_contains "does not support --profiler=true yet"
run msame --model m.om --dymBatch 2 --dymHW 2,2
expect_exit 1
expect_stdout_contains "cannot be set at the same time"
run msame --model m.om --dump true
expect_exit 1
expect_stdout_contains "--dump true needs --output"
run msame --model nowhere.om
expect_exit 1
expect_stdout_contains "E13001"
run msame --help
expect_exit 0
expect_stdout_contains "--loop"
