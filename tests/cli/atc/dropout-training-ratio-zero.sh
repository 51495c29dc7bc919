# Dropout with ratio 0 is the identity whatever training_mode says (a module exported in train()
# mode with p=0 writes training_mode true): it converts and msame returns its input unchanged,
# the mask all true. A ratio of 0.5 in training mode is still refused (E10055, naming the node).
proto=$(dirname "$(find /usr/include -path '*/onnx/onnx.proto' | head -n1)")
[ -n "$proto" ] && command -v protoc >/dev/null || skip "protoc and onnx/onnx.proto (libonnx-dev) are needed"
model() {  # model RATIO: x [2,3] -> Dropout(x, RATIO, true) -> y, mask
  cat <<TXT | protoc --encode=onnx.ModelProto -I"$proto" "$proto/onnx.proto"
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "dropout"
  node { op_type: "Dropout" name: "drop" input: "x" input: "r" input: "t" output: "y" output: "mask" }
  initializer { name: "r" data_type: 1 float_data: $1 }
  initializer { name: "t" data_type: 9 int32_data: 1 }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
  output { name: "mask" type { tensor_type { elem_type: 9 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
}
TXT
}
model 0 > zero.onnx || fail "protoc could not encode the model"
model 0.5 > half.onnx
run atc --model=zero.onnx --framework=5 --output=zero --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
printf '\x00\x00\x80\x3f\x00\x00\x00\xc0\x00\x00\x40\x40\x00\x00\x80\xc0\x00\x00\xa0\x40\x00\x00\xc0\xc0' > x.bin
run msame --model zero.om --input x.bin --output out
expect_exit 0
cmp x.bin out/*/zero_output_0.bin || fail "Dropout with ratio 0 changed its input"
[ "$(od -An -v -tu1 out/*/zero_output_1.bin | tr -s ' \n' ' ')" = " 1 1 1 1 1 1 " ] ||
  fail "the mask is not all true: $(od -An -tu1 out/*/zero_output_1.bin)"
run atc --model=half.onnx --framework=5 --output=half --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E10055"
expect_stdout_contains "drop"
expect_stdout_contains "training_mode is true with a ratio other than 0"
expect_no_file half.om
