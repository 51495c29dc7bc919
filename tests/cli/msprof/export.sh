# --export=on regenerates the summaries from the raw data; --export=prometheus writes the
# Prometheus text format; a folder without raw data is an error.
run atc --model="$ROOT/models/resnet_mini.onnx" --framework=5 --output=m --soc_version=Ascend310P3
run msprof --output=prof msame --model m.om --loop 2
expect_exit 0
prof=$(ls -d prof/PROF_*)
o=$prof/mindstudio_profiler_output
cp "$o"/op_statistic_*.csv before.csv
rm -rf "$o"
run msprof --export=on --output="$prof"
expect_exit 0
expect_stdout_contains "Top 10 ops by total time:"
for f in "$o"/op_summary_*.csv "$o"/task_time_*.csv "$o"/msprof_*.json "$o/report.html"; do expect_file "$f"; done
cmp before.csv "$o"/op_statistic_*.csv || fail "regenerated op_statistic differs"
run msprof --export=on --output=prof     # the parent folder works too
expect_exit 0
run msprof --export=prometheus --output="$prof"
expect_exit 0
expect_file "$o/msprof.prom"
grep -q '^# TYPE msprof_op_type_time_seconds gauge$' "$o/msprof.prom" || fail "prom TYPE line"
grep -Eq '^msprof_op_type_count\{prof="PROF_[^"]*",host="[^"]*",model="m",op_type="Conv2D",core_type="AI_CORE"\} [0-9]+$' "$o/msprof.prom" || fail "prom sample line"
mkdir empty
run msprof --export=on --output=empty
expect_exit 1
expect_stderr_contains "E13001"
