# msame bounds libgomp's idle spin when the user has not chosen a wait policy: libgomp reads a
# GOMP_SPINCOUNT of about 200 us of CPU pauses, timed at start, 1000 to 100000 rounds (msame's
# own getenv answers it, since libgomp reads it before main), and a GOMP_SPINCOUNT or
# OMP_WAIT_POLICY the user gave is kept. The session's info line names the
# policy in force; the outputs are the same bytes whatever the policy. (Whether libgomp takes it:
# scripts/bench/shared_machine.sh, where two msame processes collapse without it.)
# (scripts/test.sh exports OMP_WAIT_POLICY=PASSIVE, so the test clears both variables itself.)
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
expect_exit 0
awk 'BEGIN { for (i = 0; i < 192; i++) printf "%c%c%c%c", 0, 0, 128 + i % 64, 63 }' > in.bin
run env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY "$BIN/msame" --model m.om --input in.bin --output bounded --log=info
expect_exit 0
rounds=$(grep -o "OpenMP idle wait: GOMP_SPINCOUNT=[0-9]*" "$STDERR" | grep -o "[0-9]*$")
[ -n "$rounds" ] && [ "$rounds" -ge 1000 ] && [ "$rounds" -le 100000 ] ||
  fail "the bounded spin is not 1000-100000 rounds: '$rounds' ($(cat "$STDERR"))"
CHECKS=$((CHECKS + 1))
expect_stdout_contains "Execute sample success"
run env -u OMP_WAIT_POLICY GOMP_SPINCOUNT=300000 "$BIN/msame" --model m.om --input in.bin --output spin --log=info
expect_exit 0
expect_stderr_contains "OpenMP idle wait: GOMP_SPINCOUNT=300000"
run env -u GOMP_SPINCOUNT OMP_WAIT_POLICY=PASSIVE "$BIN/msame" --model m.om --input in.bin --output passive --log=info
expect_exit 0
expect_stderr_contains "OpenMP idle wait: OMP_WAIT_POLICY=PASSIVE"
CHECKS=$((CHECKS + 2))
cmp bounded/*/m_output_0.bin spin/*/m_output_0.bin || fail "outputs differ between wait policies"
cmp bounded/*/m_output_0.bin passive/*/m_output_0.bin || fail "outputs differ between wait policies"
# Errors and exit statuses are as before: a missing model fails once.
run env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY "$BIN/msame" --model missing.om --input in.bin
expect_exit 1
[ "$(grep -c 'missing.om' "$STDOUT")" -ge 1 ] || fail "no error naming the model"
