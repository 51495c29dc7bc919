# The released library and tools have no fault injection: neither libasccore nor any tool
# contains the string ASC_FAULT_NODE, and msame with ASC_FAULT_NODE set writes the same outputs
# as without it. (The planted-fault test uses the test-only asc_msame_fault.)
lib=$(ls "$(dirname "$BIN")"/lib*/libasccore.so* 2>/dev/null | head -1)
[ -n "$lib" ] || lib=$(ldd "$BIN/msame" | awk '/libasccore/ { print $3 }')
[ -f "$lib" ] || fail "no libasccore.so found for $BIN/msame"
for f in "$lib" "$BIN/atc" "$BIN/msame" "$BIN/mscompare" "$BIN/msprof"; do
  run grep -c "ASC_FAULT_NODE" "$f"
  expect_exit 1
done
# The test tool does have it (so the grep above would find one).
run grep -c "ASC_FAULT_NODE" "$BIN/asc_msame_fault"
expect_exit 0

run atc --model="$ROOT/models/resnet_mini.onnx" --framework=5 --output=m --soc_version=Ascend310P3
expect_exit 0
node="/layers/layers.1/conv2/Conv"
run msame --model m.om --output plain --random_input 1
expect_exit 0
run env ASC_FAULT_NODE="$node" msame --model m.om --output fault --random_input 1
expect_exit 0
run env ASC_FAULT_NODE="$node" asc_msame_fault --model m.om --output planted --random_input 1
expect_exit 0
expect_stderr_contains "corrupted the outputs of '$node'"
a=$(ls plain/*/m_output_0.bin) b=$(ls fault/*/m_output_0.bin) c=$(ls planted/*/m_output_0.bin)
expect_file "$a"
cmp -s "$a" "$b" || fail "ASC_FAULT_NODE changed the released msame's output"
! cmp -s "$a" "$c" || fail "asc_msame_fault did not change the output"
run env ASC_FAULT_NODE="no/such/node" asc_msame_fault --model m.om --output none --random_input 1
expect_exit 1
expect_stderr_contains "no node named 'no/such/node' ran"
