# Fleet metrics: msprof --export=prometheus labels every sample with the profile and the host
# (models on the per-model and per-op-type ones), and scripts/grafana/asc-tools.json is a valid
# dashboard whose every query names only metrics msprof writes.
run atc --model="$ROOT/models/resnet_mini.onnx" --framework=5 --output=m --soc_version=Ascend310P3
# Memory sampled at 100 Hz over 60 runs: enough samples for the peak.
run msprof --output=prof --sys-hardware-mem=on --sys-hardware-mem-freq=100 msame --model m.om --loop 60
expect_exit 0
prof=$(ls -d prof/PROF_*)
run msprof --export=prometheus --output="$prof"
expect_exit 0
prom=$prof/mindstudio_profiler_output/msprof.prom
expect_file "$prom"
host=$(cat /proc/sys/kernel/hostname)
grep -Eq "^msprof_runs\{prof=\"PROF_[^\"]*\",host=\"$host\"\} 60$" "$prom" || fail "msprof_runs line: $(grep '^msprof_runs' "$prom")"
grep -Eq "^msprof_model_op_time_seconds\{prof=\"PROF_[^\"]*\",host=\"$host\",model=\"m\"\} [0-9.]+$" "$prom" ||
  fail "per-model line: $(grep '^msprof_model_op_time' "$prom")"
grep -Eq "^msprof_peak_rss_bytes\{[^}]*\} [1-9][0-9]*$" "$prom" || fail "peak RSS: $(grep '^msprof_peak_rss' "$prom")"
dash="$ROOT/scripts/grafana/asc-tools.json"
node -e "JSON.parse(require('fs').readFileSync('$dash'))" 2>/dev/null ||
  /usr/bin/python3 -m json.tool "$dash" >/dev/null || fail "the dashboard is not valid JSON"
names=$(grep -o '"\(expr\|query\)": "[^"]*' "$dash" | grep -o 'msprof_[a-z_]*' | sort -u)
[ -n "$names" ] || fail "the dashboard names no msprof metric"
for m in $names; do
  grep -q "^# TYPE $m gauge$" "$prom" || fail "the dashboard queries $m, which msprof does not write"
done
for panel in "Op time by op type" "AI Core vs AI CPU" "Peak memory per host"; do
  grep -q "\"title\": \"$panel\"" "$dash" || fail "the dashboard lacks the panel '$panel'"
done
