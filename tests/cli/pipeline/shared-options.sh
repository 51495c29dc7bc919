# What every tool shares (asc::cli): --version names the tool and asc-tools; a bad --log level is
# E10010 in each tool that takes --log; --threads takes 1..1024 and nothing else.
for tool in atc msame mscompare msprof; do
  run $tool --version
  expect_exit 0
  expect_stdout_contains "$tool (asc-tools) "
done
run atc --version
expect_stdout_contains "command line: CANN 8.x atc"
expect_stdout_contains "ONNX (--framework=5, opsets 1-24)"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --log=loud
expect_exit 255
expect_stdout_contains "E10010"
expect_no_file m.om
run msprof --log=loud --output=prof msame --version
expect_exit_nonzero
expect_stderr_contains "E10010: invalid value for --log:loud"
# mscompare --threads: the figures do not depend on the thread count.
printf '\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x80\x40' > a.bin
printf '\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x90\x40' > b.bin
run mscompare -m a.bin -g b.bin --log=loud
expect_exit_nonzero
expect_stderr_contains "E10010"
for t in 0 -1 1025 two; do
  run mscompare -m a.bin -g b.bin --threads=$t
  expect_exit_nonzero
  expect_stderr_contains "E10001"
  expect_stderr_contains "--threads"
done
run mscompare -m a.bin -g b.bin --threads=1 --format=json
expect_exit 1
cp "$STDOUT" one.json
run mscompare -m a.bin -g b.bin --threads=2 --format=json
expect_exit 1
diff <(grep -v '"output"\|result_' one.json) <(grep -v '"output"\|result_' "$STDOUT") >/dev/null ||
  fail "mscompare gives other figures at 1 and 2 threads"
