# The deployment pipeline: convert with atc, run with msame, and the compiled model (fused,
# channels-last) gives the numbers the uncompiled .onnx gives, to float rounding.
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=zoo --soc_version=Ascend910B1 \
  --precision_mode=force_fp32 --log=info
expect_exit 0
expect_stderr_contains "fuse-conv-activation"
expect_stderr_contains "graph optimisation"
run msame --model zoo.om --input "$DATA/golden/zoo.input.npy" --output om
expect_exit 0
run msame --model "$DATA/golden/zoo.onnx" --input "$DATA/golden/zoo.input.npy" --output onnx
expect_exit 0
# 10 float outputs: compare as text with a relative tolerance.
paste <(od -An -v -f om/*/zoo_output_0.bin | tr -s ' ' '\n' | grep -v '^$') \
      <(od -An -v -f onnx/*/zoo_output_0.bin | tr -s ' ' '\n' | grep -v '^$') |
  awk '{ d = $1 - $2; if (d < 0) d = -d; a = $2 < 0 ? -$2 : $2; if (d > 1e-5 + 1e-4 * a) bad++ }
       END { exit bad ? 1 : 0 }' || fail "compiled and uncompiled outputs differ"
