# Two folders of msame outputs (an OM and its ONNX model on the same inputs) compare end to
# end; a planted difference in one output is reported with exit 1.
mkdir -p inputs
/usr/bin/python3 -c "
import numpy as np
rng = np.random.default_rng(5)
for i in range(3):
    np.save('inputs/in%d.npy' % i, rng.standard_normal((1, 3, 8, 8)).astype(np.float32))"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
run msame --model m.om --input inputs --output om
expect_exit 0
run msame --model "$DATA/tiny_conv.onnx" --input inputs --output onnx
expect_exit 0
om=$(ls -d om/*/)
onnx=$(ls -d onnx/*/)
run mscompare -m "$om" -g "$onnx" -out cmp --atol=1e-4 --rtol=1e-4
expect_exit 0
expect_stdout_line "tensors compared      3"
expect_stdout_line "failed                0"
expect_stdout_line "first failing layer   none"
# plant a difference in in1's output
/usr/bin/python3 -c "
import numpy as np, sys
p = sys.argv[1] + '/in1_output_0.bin'
a = np.fromfile(p, np.float32); a[5] += 1.0; a.tofile(p)" "$om"
run mscompare -m "$om" -g "$onnx" -out cmp2 --atol=1e-4 --rtol=1e-4
expect_exit 1
expect_stdout_line "failed                1"
expect_stdout_contains "first failing layer   in1 output 0"
expect_stdout_contains "first at element 5"
csv=$(ls cmp2/result_*.csv)
[ "$(wc -l < "$csv")" = 4 ] || fail "expected a header and 3 rows"
# msame --outfmt TXT outputs compare too
run msame --model m.om --input inputs --output txt --outfmt TXT
expect_exit 0
run mscompare -m "$(ls -d txt/*/)" -g "$onnx" -out cmp3 --atol=1e-4 --rtol=1e-4
expect_exit 0
expect_stdout_line "tensors compared      3"
