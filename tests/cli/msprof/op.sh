# msprof op (msOpProf's operator mode) on an Ascend C program: the vector-add sample launches its
# kernel on 8 blocks, twice. OpBasicInfo.csv in OPPROF_<timestamp>_<16 letters> has the real
# tool's header and one row per collected launch (Task Duration the third column, as users'
# scripts cut it); trace.json has each block on its core's row; --launch-count,
# --launch-skip-before-match and --kernel-name select launches; simulator mode writes
# simulator/trace.json; an option that is not built is refused; the program's status passes on.
# Plain msprof lists the same launches as ops.
app="$BIN/../tests/ascendc/asc_ascendc_add_custom"
[ -x "$app" ] || skip "the vector-add sample (tests/ascendc) is not built"
run msprof op --output=prof "$app"
expect_exit 0
expect_stdout_contains "msprof op: add_custom block dim 8:"
dir=$(ls -d prof/OPPROF_*)
[[ "$(basename "$dir")" =~ ^OPPROF_[0-9]{14}_[A-Z]{16}$ ]] || fail "folder name $(basename "$dir")"
head -1 "$dir/OpBasicInfo.csv" | grep -qx "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device Id,Pid,Current Freq,Rated Freq" ||
  fail "OpBasicInfo.csv header: $(head -1 "$dir/OpBasicInfo.csv")"
[ "$(wc -l < "$dir/OpBasicInfo.csv")" = 2 ] || fail "one launch collected by default"
sed -n 2p "$dir/OpBasicInfo.csv" | grep -qE '^add_custom,vector,[0-9]+\.[0-9]{3},8,N/A,0,[0-9]+,' ||
  fail "row: $(sed -n 2p "$dir/OpBasicInfo.csv")"
duration=$(sed -n 2p "$dir/OpBasicInfo.csv" | cut -d, -f3)
awk "BEGIN { exit !($duration > 0) }" || fail "Task Duration $duration"
for b in 0 1 2 3 4 5 6 7; do
  grep -q "\"pid\":\"core$b.veccore0\".*\"block_id\":$b," "$dir/trace.json" ||
    fail "trace.json has no span of block $b"
done
[ "$(grep -c '"name":"add_custom","ph":"X"' "$dir/trace.json")" = 8 ] || fail "trace.json: 8 spans"
expect_file "$dir/README.txt"

run msprof op simulator --soc-version=Ascend910B4 --launch-count=2 --output=sim "$app"
expect_exit 0
dir=$(ls -d sim/OPPROF_*)
expect_file "$dir/simulator/trace.json"
[ "$(wc -l < "$dir/OpBasicInfo.csv")" = 3 ] || fail "two launches collected"

run msprof op --launch-skip-before-match=1 --kernel-name='add_*' --output=skip "$app"
expect_exit 0
[ "$(wc -l < skip/OPPROF_*/OpBasicInfo.csv)" = 1 ] || fail "the only add_custom launch was skipped"
expect_stderr_contains "no kernel launch matched --kernel-name=add_*"

run msprof op --timeout=5 --output=refused "$app"
expect_exit 2
expect_stderr_contains "E10055"
expect_no_file refused
run msprof op simulator --soc-version=Ascend999 "$app"
expect_exit 2
run msprof op --output=status sh -c 'exit 4'
expect_exit 4
expect_stderr_contains "no kernel launch ran on the CPU twin"

# Plain msprof on the same program: its kernel launches are the ops of op_summary (Block Num 8)
# and op_statistic, under one "Ascend C kernels" model; no warning that nothing ran.
run msprof --output=plain "$app"
expect_exit 0
expect_stderr_not_contains "the summaries are empty"
summary=$(ls plain/PROF_*/mindstudio_profiler_output/op_summary_*.csv)
grep -qE '^0,1,[0-9]+,0,add_custom,add_custom,static,AI_CORE,[0-9.]+,[0-9.]+,[0-9.]+,8,' "$summary" ||
  fail "op_summary has no add_custom row with Block Num 8: $(cat "$summary")"
grep -q '^0,Ascend C kernels,add_custom,AI_CORE,1,' plain/PROF_*/mindstudio_profiler_output/op_statistic_*.csv ||
  fail "op_statistic has no add_custom row"
