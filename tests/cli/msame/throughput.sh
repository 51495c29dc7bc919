# msame's throughput mode (issue 34): --warmup, --loop or --duration, --concurrency K sessions
# over one .om, --summary_json. The summary is printed (compute-time distribution, fps), the JSON
# has every field with the counts the options ask for, the outputs are those of a plain run, and
# bad combinations are refused before anything runs (no JSON written).
run atc --model="$ROOT/models/resnet_mini.onnx" --framework=5 --output=m --soc_version=Ascend310P3 --precision_mode=force_fp32
expect_exit 0
run msame --model m.om --random_input 5 --output plain
expect_exit 0
run msame --model m.om --random_input 5 --output tp --concurrency 2 --threads 1 --loop 3 --warmup 1 --summary_json s.json
expect_exit 0
expect_stdout_contains "Performance Summary"
expect_stdout_contains "[INFO] throughput:"
expect_stdout_contains "6 runs in"
expect_stdout_contains "concurrency 2, 1 threads each, warmup 1"
cmp "$(ls plain/*/m_output_0.bin)" "$(ls tp/*/m_output_0.bin)" || fail "throughput mode changed the outputs"
/usr/bin/python3 - <<'PY' || fail "summary JSON"
import json
s = json.load(open("s.json"))
for k in ("throughput_fps", "latency_ms", "load_ms", "first_ms", "runs", "threads", "concurrency", "warmup", "duration_s"):
    assert k in s, k
assert s["runs"] == 6 and s["concurrency"] == 2 and s["threads"] == 1 and s["warmup"] == 1, s
lat = s["latency_ms"]
assert 0 < lat["min"] <= lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"], lat
assert s["throughput_fps"] > 0 and s["load_ms"] > 0 and s["first_ms"] > 0, s
PY
CHECKS=$((CHECKS + 1))
run msame --model m.om --duration 0.3 --summary_json d.json
expect_exit 0
/usr/bin/python3 -c "import json; s = json.load(open('d.json')); assert s['runs'] >= 1 and s['duration_s'] == 0.3, s" ||
  fail "duration JSON"
# Refused: a concurrency of 0, a duration that is no positive number, dumps, folders, .onnx.
run msame --model m.om --concurrency 0 --summary_json bad1.json
expect_exit_nonzero
expect_stdout_contains "concurrency"
expect_no_file bad1.json
run msame --model m.om --duration -1 --summary_json bad2.json
expect_exit_nonzero
expect_stdout_contains "--duration"
expect_no_file bad2.json
run msame --model m.om --concurrency 2 --dump true --output dd --summary_json bad3.json
expect_exit_nonzero
expect_stdout_contains "run --dump or --debug without them"
expect_no_file bad3.json
mkdir -p inputs
cp "$(ls plain/*/m_output_0.bin)" inputs/a.bin
run msame --model m.om --input inputs --concurrency 2 --summary_json bad4.json
expect_exit_nonzero
expect_stdout_contains "--input gives folders"
expect_no_file bad4.json
run msame --model "$ROOT/models/resnet_mini.onnx" --concurrency 2
expect_exit_nonzero
expect_stdout_contains "convert it with atc first"
