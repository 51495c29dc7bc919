# --outfmt TXT writes values separated by spaces, one line per row of the last dim.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
run msame --model m.om --output out --outfmt TXT
expect_exit 0
f=$(ls out/*/m_output_0.txt)
[ "$(wc -l < "$f")" = 32 ] || fail "expected 4*8 rows, got $(wc -l < "$f")"
[ "$(head -1 "$f" | wc -w)" = 8 ] || fail "expected 8 values per row"
