# report.html renders in headless Chromium: the Gantt timeline, time-by-type and efficiency
# charts are laid out with non-zero size (the page's own script reports getBBox), and a
# screenshot is taken. Chromium comes from scripts/install-deps.sh --test.
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || skip "chromium is not installed (scripts/install-deps.sh --test installs it)"
run atc --model="$ROOT/models/resnet_mini.onnx" --framework=5 --output=m --soc_version=Ascend310P3
run msprof --output=prof msame --model m.om --loop 5
expect_exit 0
html=$(ls "$PWD"/prof/PROF_*/mindstudio_profiler_output/report.html)
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync)
run timeout 120 "$browser" "${flags[@]}" --user-data-dir="$TMP/chrome1" --dump-dom "file://$html"
expect_exit 0
rendered=$(grep -o 'data-rendered="[^"]*"' "$STDOUT") || fail "page script did not run"
echo "$rendered"
for id in gantt optype efficiency; do
  echo "$rendered" | grep -Eq " ?$id:[1-9][0-9]*:[1-9][0-9]*x[1-9][0-9]*" || fail "$id not rendered: $rendered"
done
run timeout 120 "$browser" "${flags[@]}" --user-data-dir="$TMP/chrome2" --window-size=1100,1400 \
  --screenshot="$TMP/report.png" "file://$html"
expect_exit 0
expect_file "$TMP/report.png"
[ "$(stat -c %s "$TMP/report.png")" -gt 10000 ] || fail "screenshot is nearly empty"
echo "screenshot: $TMP/report.png"
