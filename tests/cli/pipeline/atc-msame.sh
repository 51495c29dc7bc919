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
# 10 float outputs each, compared as text with a relative tolerance: the compiled model against
# the uncompiled one and against ONNX Runtime's output (zoo.ort.bin). Empty, short or
# all-zero outputs fail.
floats() { od -An -v -f "$1" | tr -s ' ' '\n' | grep -v '^$'; }
same_floats() {
  [ "$(floats "$1" | wc -l)" -eq 10 ] || fail "$1 holds $(floats "$1" | wc -l) floats, expected 10"
  [ "$(floats "$2" | wc -l)" -eq 10 ] || fail "$2 holds $(floats "$2" | wc -l) floats, expected 10"
  paste <(floats "$1") <(floats "$2") |
    awk '{ d = $1 - $2; if (d < 0) d = -d; a = $2 < 0 ? -$2 : $2; if (d > 1e-5 + 1e-4 * a) bad++
           if (a > 1e-3) nonzero++ }
         END { exit (bad || nonzero < 5) ? 1 : 0 }' || fail "$1 and $2 differ (or are ~0)"
}
om_out=$(ls om/*/zoo_output_0.bin)
onnx_out=$(ls onnx/*/zoo_output_0.bin)
expect_file "$om_out"
expect_file "$onnx_out"
same_floats "$om_out" "$onnx_out"
same_floats "$om_out" "$DATA/golden/zoo.ort.bin"
