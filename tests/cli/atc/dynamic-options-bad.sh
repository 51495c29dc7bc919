# atc's rules for the dynamic-shape options (ascend-facts.md 1.4): each refusal has its code and
# writes no model.
MODEL="$ROOT/models/resnet_mini.onnx"
common=(--model="$MODEL" --framework=5 --soc_version=Ascend310P3 --output=m)
check() {  # check CODE TEXT -- atc options...
  local code=$1 text=$2
  shift 3
  run atc "${common[@]}" "$@"
  expect_exit_nonzero
  expect_stdout_contains "$code"
  expect_stdout_contains "$text"
  expect_no_file m.om
}
check E10009 "cannot be used together" -- --input_shape="input:-1,3,224,224" \
  --dynamic_batch_size="1,2" --dynamic_dims="1;2"
check E10009 "cannot be used together" -- --input_shape="input:1~4,3,224,224" \
  --dynamic_batch_size="1,2"
check E10012 "only the batch dim (0) may be -1" -- --input_shape="input:1,3,-1,224" \
  --dynamic_batch_size="1,2"
check E10012 "needs -1 dims" -- --input_shape="input:1,3,224,224" --dynamic_batch_size="1,2"
check E10035 "gives 1 profile" -- --input_shape="input:-1,3,224,224" --dynamic_batch_size="4"
check E10036 "at most 100" -- --input_shape="input:-1,3,224,224" \
  --dynamic_batch_size="$(seq -s, 1 101)"
check E10039 "twice" -- --input_shape="input:-1,3,224,224" --dynamic_batch_size="1,2,2"
check E10038 "positive whole number" -- --input_shape="input:-1,3,224,224" \
  --dynamic_batch_size="1,0"
check E10020 "is not \"h,w\"" -- --input_shape="input:1,3,-1,-1" --dynamic_image_size="224;448,448"
check E10018 "only H and W" -- --input_shape="input:-1,3,224,-1" --dynamic_image_size="2,224;4,448"
check E10045 "-1 dims" -- --input_shape="input:-1,3,-1,224" --dynamic_dims="1;2"
check E10037 "the first has" -- --input_shape="input:-1,3,-1,224" --dynamic_dims="1,224;2"
check E10048 "not name:[dims]" -- --input_shape_range="input"
check E10048 "is not a~b" -- --input_shape_range="input:[1,3,300~200,224]"
check E1001 "dims must be positive" -- --input_shape="input:0,3,224,224"
printf 'aipp_op {\n  aipp_mode: static\n  input_format: RGB888_U8\n}\n' > aipp.cfg
check E10001 "dynamic dims function does not support aipp" -- \
  --input_shape="input:-1,3,224,224" --dynamic_dims="1;2" --insert_op_conf=aipp.cfg
