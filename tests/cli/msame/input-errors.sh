# Inputs that do not fit the model are refused, naming the input and both sizes; no outputs.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
head -c 100 /dev/zero > small.bin
run msame --model m.om --input small.bin --output out
expect_exit 1
expect_stdout_contains "E1001"
expect_stdout_contains "'input'"
expect_stdout_contains "768 bytes"
expect_stdout_contains "100 bytes"
expect_stdout_contains "[ERROR] Execute sample failed"
[ -z "$(find out -name '*.bin' 2>/dev/null)" ] || fail "an output was written"
run msame --model m.om --input missing.bin
expect_exit 1
expect_stdout_contains "E13001"
run msame --model m.om --input small.bin,small.bin
expect_exit 1
expect_stdout_contains "2 paths, the model has 1 inputs"
run msame --model "$DATA/golden/zoo.onnx" --input "$DATA/golden/resnet_mini.input.npy"
expect_exit 1
expect_stdout_contains "[1,3,224,224]"
