# A shell script that runs msame twice: both processes are traced into one profile.
run atc --model="$ROOT/models/resnet_mini.onnx" --framework=5 --output=m --soc_version=Ascend310P3
cat > twice.sh <<'SH'
#!/bin/sh
msame --model m.om --loop 2 >/dev/null || exit 1
msame --model m.om --loop 3 >/dev/null || exit 1
SH
chmod +x twice.sh
run msprof --output=prof ./twice.sh
expect_exit 0
expect_stdout_contains "2 process(es), 2 model session(s), 5 run(s)"
[ "$(ls prof/PROF_*/host/data/asc_trace.*.txt | wc -l)" = 2 ] || fail "expected two raw files"
/usr/bin/python3 -c '
import glob, json
ev = json.load(open(glob.glob("prof/PROF_*/mindstudio_profiler_output/msprof_*.json")[0]))
assert len({e["pid"] for e in ev if e.get("name") == "ModelExecute"}) == 2
' || fail "timeline does not hold both processes"
