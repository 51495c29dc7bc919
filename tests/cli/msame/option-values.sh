# msame refuses option values it does not understand, before it loads anything or creates the
# output folder: exit 1, "[ERROR] E10001: ..." (E10004 for an empty value) naming the option and
# what it accepts, then the real tool's "[ERROR] Execute sample failed". The range messages are
# the real msame's ("loop must in 1 to 100", "device id must in 0 to 255").
bad() {  # bad EXPECTED-FRAGMENT OPTION...
  local want=$1
  shift
  run msame --model m.om --output out "$@"
  expect_exit 1
  expect_stdout_contains "$want"
  expect_stdout_contains "[ERROR] Execute sample failed"
  expect_no_file out
}
bad "E10001: Value txt for parameter --outfmt is invalid. Reason: use TXT or BIN" --outfmt txt
bad "E10001: Value json for parameter --outfmt is invalid" --outfmt json
bad "E10001: Value (empty) for parameter --outfmt is invalid" --outfmt=
bad "E10005: Value yes for parameter --debug is invalid. Reason: use true or false" --debug yes
bad "E10005: Value TRUE for parameter --debug is invalid" --debug TRUE
bad "E10005: Value 1 for parameter --profiler is invalid" --profiler 1
bad "E10001: Value 0 for parameter --threads is invalid. Reason: give a whole number from 1 to 1024" --threads 0
bad "E10001: Value -2 for parameter --threads is invalid" --threads -2
bad "E10001: Value 5000 for parameter --threads is invalid" --threads 5000
bad "E10001: Value four for parameter --threads is invalid" --threads four
bad "E10004: Value for --threads is empty" --threads=
bad "E10010" --log loud
for opt in loop device max_loop random_input; do
  bad "E10004: Value for --$opt is empty. Reason: give a whole number" --$opt=
  bad "E10001: Value abc for parameter --$opt is invalid. Reason: give a whole number" --$opt abc
  bad "E10001: Value 1.5 for parameter --$opt is invalid" --$opt 1.5
  bad "E10001: Value 2x for parameter --$opt is invalid" --$opt 2x
  bad "E10001: Value  3 for parameter --$opt is invalid" --$opt " 3"
  # strtol saturates at LONG_MAX; a wrapped int would pass the range check
  bad "E10001: Value 99999999999999999999 for parameter --$opt is invalid" --$opt 99999999999999999999
  bad "E10001: Value 4294967297 for parameter --$opt is invalid" --$opt 4294967297
  bad "E10001: Value -4294967295 for parameter --$opt is invalid" --$opt -4294967295
done
bad "loop must in 1 to 100" --loop 0
bad "loop must in 1 to 100" --loop -1
bad "loop must in 1 to 100" --loop 101
bad "loop must in 1 to 5" --loop 6 --max_loop 5
bad "E10001: --max_loop must be at least 1" --max_loop 0
bad "E10001: --max_loop must be at least 1" --max_loop -7
bad "device id must in 0 to 255" --device -1
bad "device id must in 0 to 255" --device 256
bad "E10001: Value -1 for parameter --random_input is invalid. Reason: give a whole number seed >= 0" --random_input -1

# The accepted values still work: upper-case TXT and BIN, true/false, a thread count.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
for fmt in TXT BIN; do
  run msame --model m.om --output "o$fmt" --outfmt $fmt --debug false --threads 2 --loop +2 --device 0 --log error
  expect_exit 0
  expect_stdout_contains "Execute sample success"
done
expect_file "$(ls oTXT/*/m_output_0.txt)"
expect_file "$(ls oBIN/*/m_output_0.bin)"
