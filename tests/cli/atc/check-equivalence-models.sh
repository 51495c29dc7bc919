# --check_equivalence=true on every model the tests bundle (and on the ten benchmark models when
# bench-models/ is present): the optimised graph computes what the original does on random
# inputs, so no fusion changes a result. Models that exist to be refused are left out.
models=("$ROOT"/models/*.onnx "$DATA"/golden/zoo.onnx "$DATA"/shape_chain.onnx "$DATA"/tiny_conv.onnx
        "$DATA"/tiny_conv_opset7.onnx "$DATA"/tiny_external.onnx "$DATA"/two_inputs.onnx)
[ -d "$ROOT/bench-models" ] && models+=("$ROOT"/bench-models/*.onnx)
n=0
for m in "${models[@]}"; do
  [ -f "$m" ] || continue
  run atc --model="$m" --framework=5 --output="eq_$n" --soc_version=Ascend310P3 --check_equivalence=true --log=info
  expect_exit 0
  grep -q "check_equivalence: output" "$STDERR" || fail "$m: no check_equivalence line"
  n=$((n + 1))
done
[ "$n" -ge 7 ] || fail "only $n models checked"
run atc --model="$DATA/dynamic_batch.onnx" --framework=5 --output=dyn --soc_version=Ascend310P3 --input_shape="x:2,3,4,4" --check_equivalence=true --log=info
expect_exit 0
expect_stderr_contains "check_equivalence: output"
