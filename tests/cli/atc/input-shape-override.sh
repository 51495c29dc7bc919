# A dynamic batch needs --input_shape; with it the model converts with that shape.
run atc --model="$DATA/dynamic_batch.onnx" --framework=5 --output=m --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E1001"
expect_stdout_contains "batch"
expect_no_file m.om
run atc --model="$DATA/dynamic_batch.onnx" --framework=5 --output=m --soc_version=Ascend310 --input_shape="x:4,3,4,4"
expect_exit 0
run atc --mode=6 --om=m.om
expect_stdout_contains "inputs[x:float32:[4,3,4,4]]"
expect_stdout_contains "outputs[y:float32:[4,3,4,4]]"
