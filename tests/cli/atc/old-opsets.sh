# Models at ONNX opsets 1 to 6 convert (the conformance suite runs their node tests); an op whose
# early form differs from the one asc-tools reads (Reshape's shape attribute before opset 5,
# Relu's consumed_inputs before 6) is refused by name, with the opset it is read from, and no OM
# is written.
proto=/usr/include/onnx/onnx.proto
model() {  # model NAME OPSET NODE OUT_DIMS
  cat > "$1.textproto" <<TXT
ir_version: 3
opset_import { domain: "" version: $2 }
graph {
  name: "old"
  $3
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 16 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { $4 } } } }
}
TXT
  protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < "$1.textproto" > "$1.onnx" ||
    fail "protoc could not encode $1"
}
model reshape1 1 'node { op_type: "Reshape" name: "r" input: "x" output: "y" attribute { name: "shape" type: INTS ints: 4 ints: 4 } }' \
  'dim { dim_value: 4 } dim { dim_value: 4 }'
run atc --model=reshape1.onnx --framework=5 --output=reshape1 --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E2002"
expect_stdout_contains "operator 'Reshape' (node 'r'): asc-tools reads it from opset 5 on"
expect_no_file reshape1.om
# Relu at opset 6 (before 7's broadcasting changes) converts and runs; at opset 1 (with
# consumed_inputs) it is refused the same way.
model relu0 1 'node { op_type: "Relu" name: "r" input: "x" output: "y" attribute { name: "consumed_inputs" type: INTS ints: 0 } }' \
  'dim { dim_value: 16 }'
run atc --model=relu0.onnx --framework=5 --output=relu0 --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "asc-tools reads it from opset 6 on"
model relu1 6 'node { op_type: "Relu" name: "r" input: "x" output: "y" }' \
  'dim { dim_value: 16 }'
run atc --model=relu1.onnx --framework=5 --output=relu1 --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
awk 'BEGIN { for (i = 0; i < 16; i++) printf "%c%c%c%c", 0, 0, 128, (i % 2 ? 191 : 63) }' > x.bin  # +-1.0
run msame --model relu1.om --input x.bin --output out
expect_exit 0
[ "$(od -An -v -f out/*/relu1_output_0.bin | tr -s ' ' '\n' | grep -v '^$' | sort -u | tr '\n' ' ')" = "0 1 " ] ||
  fail "Relu at opset 6 gave $(od -An -v -f out/*/relu1_output_0.bin | head -2)"
