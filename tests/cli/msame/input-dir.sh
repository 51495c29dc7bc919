# A folder of inputs: one run per file in sorted order, outputs named after the input files,
# and the directory-mode average line.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
mkdir inputs
head -c 768 /dev/zero > inputs/b.bin
awk 'BEGIN { for (i = 0; i < 192; i++) printf "%c%c%c%c", 0, 0, 128, 63 }' > inputs/a.bin
run msame --model m.om --input inputs --output out
expect_exit 0
expect_stdout_contains "start to process file:inputs/a.bin"
expect_stdout_contains "Inference average time : "
expect_stdout_contains "Inference average time without first time: "
expect_file out/*/a_output_0.bin
expect_file out/*/b_output_0.bin
cmp -s out/*/a_output_0.bin out/*/b_output_0.bin && fail "different inputs gave the same output"
true
