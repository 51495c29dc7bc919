# msprof --application="python3 infer.py" profiles a pyACL script: the op summary of the model it
# runs (every op, once per execution), its ACL calls in api_statistic (CANN's header: Level,
# API Name, Time(us), Count, ...), and both in the timeline.
PY=/usr/bin/python3
build="$BIN/.."
ls "$build"/python/acl.*.so >/dev/null 2>&1 || skip "the pyACL module was not built (no python3-dev)"
if ldd "$build"/python/acl.*.so | grep -q libasan; then
  export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
fi
export PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --soc_version=Ascend310 --output=tiny --precision_mode=force_fp32
expect_exit 0
mkdir o
head -c 768 /dev/zero > x.bin
run msprof --output=prof --application="$PY $ROOT/tests/acl/pyacl_app.py tiny.om o --input x.bin --loop 3"
expect_exit 0
dir=$(ls -d prof/PROF_*/mindstudio_profiler_output | head -1)
[ -n "$dir" ] || fail "no mindstudio_profiler_output folder"
api=$(ls "$dir"/api_statistic_*.csv | head -1)
[ -n "$api" ] || fail "no api_statistic file"
[ "$(head -1 "$api")" = "Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance" ] ||
  fail "api_statistic header: $(head -1 "$api")"
grep -q "^acl,aclmdlLoadFromFile,[0-9.]*,1," "$api" || fail "no aclmdlLoadFromFile row: $(cat "$api")"
grep -q "^acl,aclmdlExecuteAsync,[0-9.]*,3," "$api" || fail "no aclmdlExecuteAsync x3 row: $(cat "$api")"
grep -q "^acl,aclrtMemcpy,[0-9.]*,2," "$api" || fail "no aclrtMemcpy x2 row: $(cat "$api")"
grep -q "^model,ModelExecute,[0-9.]*,3," "$api" || fail "no ModelExecute x3 row: $(cat "$api")"
ops=$(ls "$dir"/op_summary_*.csv | head -1)
[ "$(tail -n +2 "$ops" | wc -l)" -ge 3 ] || fail "op_summary has too few rows: $(cat "$ops")"
grep -q "Conv" "$ops" || fail "op_summary has no Conv"
grep -q '"aclmdlExecuteAsync"' "$dir"/msprof_*.json || fail "the timeline has no aclmdlExecuteAsync span"
CHECKS=$((CHECKS + 1))
