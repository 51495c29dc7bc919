# --precision_mode: force_fp16 (the default, as in the real atc) stores fp16 tensors and keeps the
# model's fp32 inputs and outputs; --input_fp16_nodes and --output_type change those; a bad mode
# is E10001 and an unknown input name E1001.
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=h --soc_version=Ascend310
expect_exit 0
run atc --mode=1 --om=h.om --json=h.json
grep -q '"dtype": "DT_FLOAT16"' h.json || fail "no fp16 tensor in a force_fp16 model"
run atc --mode=6 --om=h.om
expect_stdout_contains "inputs[input:float32:[1,3,32,32]]"
expect_stdout_contains "outputs[output:float32:[1,10]]"
run msame --model h.om --input "$DATA/golden/zoo.input.npy" --output out
expect_exit 0
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=f --soc_version=Ascend310 --precision_mode=force_fp32
run atc --mode=1 --om=f.om --json=f.json
grep -q '"dtype": "DT_FLOAT16"' f.json && fail "fp16 tensor in a force_fp32 model"
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=io --soc_version=Ascend310 --input_fp16_nodes="input" --output_type=FP16
expect_exit 0
run atc --mode=6 --om=io.om
expect_stdout_contains "inputs[input:float16:[1,3,32,32]]"
expect_stdout_contains "outputs[output:float16:[1,10]]"
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=x --soc_version=Ascend310 --precision_mode=fp8
expect_exit 255
expect_stdout_contains "E10001"
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=x --soc_version=Ascend310 --input_fp16_nodes="nope"
expect_exit 255
expect_stdout_contains "E1001"
expect_no_file x.om
# --modify_mixlist: only with allow_mix_precision; a JSON file of list changes.
printf '{"black-list": {"to-add": ["Conv2D"]}}' > mix.json
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=mx --soc_version=Ascend310 --modify_mixlist=mix.json
expect_exit 255
expect_stdout_contains "allow_mix_precision"
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=mx --soc_version=Ascend310 --precision_mode=allow_mix_precision --modify_mixlist=mix.json
expect_exit 0
printf '{"black-list": [' > bad.json
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=mx2 --soc_version=Ascend310 --precision_mode=allow_mix_precision --modify_mixlist=bad.json
expect_exit 255
expect_stdout_contains "E10032"
expect_no_file mx2.om
