# When other processes keep the cores busy as a session with more than one thread is built,
# msame runs the steps with little work on one thread (a barrier after each parallel step would
# wait for a thread the other process holds), says so at --log=info, and gives the same bytes.
# ASC_STEP_MIN_WORK sets the work below which a step takes one thread (0: never), whatever the
# load. ASC_THREADS_FOLLOW_LOAD=0 keeps every step on the session's count (scripts/test.sh
# exports it; the test sets it, or clears it where it wants the load followed).
export ASC_THREADS_FOLLOW_LOAD=0
unset ASC_STEP_MIN_WORK
run atc --model="$ROOT/models/resnet_mini.onnx" --framework=5 --output=m --soc_version=Ascend310P3 --precision_mode=force_fp32
expect_exit 0
run msame --model m.om --random_input 5 --threads 2 --output whole --log=info
expect_exit 0
expect_stderr_not_contains "steps run on fewer than"
# Every step on one thread, some of them, none: the same bytes.
for w in 1000000000000 1000000 0; do
  run env ASC_STEP_MIN_WORK=$w "$BIN/msame" --model m.om --random_input 5 --threads 2 --output "w$w" --log=info
  expect_exit 0
  CHECKS=$((CHECKS + 1))
  cmp whole/*/m_output_0.bin "w$w"/*/m_output_0.bin || fail "ASC_STEP_MIN_WORK=$w changed the output"
done
run env ASC_STEP_MIN_WORK=1000000000000 "$BIN/msame" --model m.om --random_input 5 --threads 2 --log=info
expect_stderr_contains "steps run on fewer than 2 threads"
# A busy process beside the load: the small steps go to one thread on their own.
(while :; do :; done) &
busy=$!
sleep 0.2
run env -u ASC_THREADS_FOLLOW_LOAD -u ASC_STEP_MIN_WORK "$BIN/msame" --model m.om --random_input 5 --threads 2 --output loaded --log=info
kill "$busy"
wait "$busy" 2>/dev/null || true
expect_exit 0
expect_stderr_contains "steps run on fewer than 2 threads (little work, other processes busy on the cores)"
CHECKS=$((CHECKS + 1))
cmp whole/*/m_output_0.bin loaded/*/m_output_0.bin || fail "the loaded run's output differs"
# Beside the load the session also has kernels on both threads for those steps, and each run
# takes the way that was faster lately: ASC_RUN_WAY=wide always takes them, =narrow has only the
# one-thread kernels. The same bytes every way; the log counts the runs of each.
(while :; do :; done) &
busy=$!
sleep 0.2
for way in wide narrow auto; do
  run env -u ASC_THREADS_FOLLOW_LOAD -u ASC_STEP_MIN_WORK ASC_RUN_WAY=$way "$BIN/msame" --model m.om --random_input 5 --threads 2 --loop 12 --output "way-$way" --log=info
  expect_exit 0
  CHECKS=$((CHECKS + 1))
  cmp whole/*/m_output_0.bin "way-$way"/*/m_output_0.bin || fail "ASC_RUN_WAY=$way changed the output"
  case $way in
    wide)
      expect_stderr_contains "also have a kernel on 2: every run takes those (ASC_RUN_WAY=wide)"
      expect_stderr_contains "12 run(s) with every step on 2 threads, 0 with steps held to the free cores; 0 change(s) of way" ;;
    narrow)
      expect_stderr_not_contains "also have a kernel"
      expect_stderr_not_contains "with every step on" ;;
    auto)
      expect_stderr_contains "each run takes the way that was faster lately"
      expect_stderr_contains "with steps held to the free cores" ;;
  esac
done
kill "$busy"
wait "$busy" 2>/dev/null || true
# ASC_THREADS_FOLLOW_LOAD=0 keeps every step on the session's count beside the same load.
(while :; do :; done) &
busy=$!
sleep 0.2
run env -u ASC_STEP_MIN_WORK ASC_THREADS_FOLLOW_LOAD=0 "$BIN/msame" --model m.om --random_input 5 --threads 2 --log=info
kill "$busy"
wait "$busy" 2>/dev/null || true
expect_exit 0
expect_stderr_not_contains "steps run on fewer than"
