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
bad "E10001: --outfmt must be TXT or BIN (upper case), not 'txt'" --outfmt txt
bad "E10001: --outfmt must be TXT or BIN (upper case), not 'json'" --outfmt json
bad "E10001: --outfmt must be TXT or BIN (upper case), not ''" --outfmt=
bad "E10001: --debug must be true or false, not 'yes'" --debug yes
bad "E10001: --debug must be true or false, not 'TRUE'" --debug TRUE
bad "E10001: --profiler must be true or false, not '1'" --profiler 1
bad "E10001: --threads must be from 1 to 1024, not 0" --threads 0
bad "E10001: --threads must be from 1 to 1024, not -2" --threads -2
bad "E10001: --threads must be from 1 to 1024, not 5000" --threads 5000
bad "E10001: --threads takes an integer from 1 to 1024, not 'four'" --threads four
bad "E10004: --threads is empty" --threads=
for opt in loop device max_loop random_input; do
  bad "E10004: --$opt is empty; it takes an integer" --$opt=
  bad "E10001: --$opt takes an integer" --$opt abc
  bad "E10001: --$opt takes an integer" --$opt 1.5
  bad "E10001: --$opt takes an integer" --$opt 2x
  bad "E10001: --$opt takes an integer" --$opt " 3"
  # strtol saturates at LONG_MAX; a wrapped int would pass the range check
  bad "E10001: --$opt value '99999999999999999999' is out of range" --$opt 99999999999999999999
  bad "E10001: --$opt value '4294967297' is out of range" --$opt 4294967297
  bad "E10001: --$opt value '-4294967295' is out of range" --$opt -4294967295
done
bad "loop must in 1 to 100" --loop 0
bad "loop must in 1 to 100" --loop -1
bad "loop must in 1 to 100" --loop 101
bad "loop must in 1 to 5" --loop 6 --max_loop 5
bad "E10001: --max_loop must be at least 1" --max_loop 0
bad "E10001: --max_loop must be at least 1" --max_loop -7
bad "device id must in 0 to 255" --device -1
bad "device id must in 0 to 255" --device 256
bad "E10001: --random_input takes a seed >= 0, not -1" --random_input -1

# The accepted values still work: upper-case TXT and BIN, true/false, a thread count.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
for fmt in TXT BIN; do
  run msame --model m.om --output "o$fmt" --outfmt $fmt --debug false --threads 2 --loop +2 --device 0
  expect_exit 0
  expect_stdout_contains "Execute sample success"
done
expect_file "$(ls oTXT/*/m_output_0.txt)"
expect_file "$(ls oBIN/*/m_output_0.bin)"
