# --memory_config: an INI file with a [memory_optimize] section. enable_memory_reuse=false
# lays tensors end to end (as --disable_reuse_memory=1); memory_reuse_mb caps the activation
# arena (E3003 with both sizes, no OM); unknown keys or sections, and a contradiction with
# --disable_reuse_memory, are E10001.
model="$DATA/golden/zoo.onnx"
printf '[memory_optimize]\nenable_memory_reuse = true  # default\nmemory_reuse_mb = 64\n' > on.ini
run atc --model="$model" --framework=5 --output=on --soc_version=Ascend310 --precision_mode=force_fp32 --memory_config=on.ini
expect_exit 0
run atc --mode=6 --om=on.om
expect_stdout_contains "reuse[on]"
arena_on=$(sed -n 's/.*arena\[\([0-9]*\) B\].*/\1/p' "$STDOUT")
printf '; reuse off\n[memory_optimize]\nenable_memory_reuse=false\n' > off.ini
run atc --model="$model" --framework=5 --output=off --soc_version=Ascend310 --precision_mode=force_fp32 --memory_config=off.ini
expect_exit 0
run atc --mode=6 --om=off.om
expect_stdout_contains "reuse[off]"
arena_off=$(sed -n 's/.*arena\[\([0-9]*\) B\].*/\1/p' "$STDOUT")
[ "$arena_off" -gt "$arena_on" ] || fail "reuse-off arena $arena_off is not larger than $arena_on"
# A limit below the plan: E3003 naming the arena and the limit.
printf '[memory_optimize]\nmemory_reuse_mb=1\n' > tight.ini
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=tight --soc_version=Ascend310 --precision_mode=force_fp32 --input_shape="input:1,3,512,512" --memory_config=tight.ini
expect_exit 255
expect_stdout_contains "E3003"
expect_stdout_contains "memory_reuse_mb=1 (1048576 bytes)"
expect_no_file tight.om
printf '[memory_optimize]\nenable_memory_reuse=maybe\n' > bad.ini
run atc --model="$model" --framework=5 --output=bad --soc_version=Ascend310 --memory_config=bad.ini
expect_exit 255
expect_stdout_contains "E10001"
expect_stdout_contains "line 2"
expect_no_file bad.om
printf '[memory]\nenable_memory_reuse=true\n' > section.ini
run atc --model="$model" --framework=5 --output=bad --soc_version=Ascend310 --memory_config=section.ini
expect_exit 255
expect_stdout_contains "unknown section [memory]"
run atc --model="$model" --framework=5 --output=bad --soc_version=Ascend310 --memory_config=off.ini --disable_reuse_memory=0
expect_exit 255
expect_stdout_contains "give one of the two"
expect_no_file bad.om
# The runtime follows the OM's setting: without reuse its own arena is larger too.
run msame --model on.om --output run_on --debug true
rt_on=$(sed -n 's/.*arena \([0-9]*\) bytes.*/\1/p' "$STDOUT" "$STDERR")
run msame --model off.om --output run_off --debug true
rt_off=$(sed -n 's/.*arena \([0-9]*\) bytes.*/\1/p' "$STDOUT" "$STDERR")
[ -n "$rt_on" ] && [ -n "$rt_off" ] || fail "msame --debug printed no arena line"
[ "$rt_off" -gt "$rt_on" ] || fail "runtime arena without reuse ($rt_off) is not larger than with ($rt_on)"
