# atc --singleop: one single-operator OM per op of a JSON description, in the --output folder,
# named as CANN's atc names them; msame runs such an OM like any other (the static one here,
# against numpy). A file that is not valid, an op no operator has, or an output the op does not
# compute fails with its code and writes no model at all (not the ops before it either).
PY=/usr/bin/python3
cat >ops.json <<'JSON'
[
  {"op": "Add",
   "input_desc": [{"name": "x1", "param_type": "required", "format": "ND", "shape": [4, 8], "type": "float"},
                  {"name": "x2", "param_type": "required", "format": "ND", "shape": [4, 8], "type": "float"}],
   "output_desc": [{"name": "y", "param_type": "required", "format": "ND", "shape": [4, 8], "type": "float"}]},
  {"op": "Mul",
   "input_desc": [{"format": "ND", "shape": [-1, 8], "shape_range": [[1, 32]], "type": "float16"},
                  {"format": "ND", "shape": [-1, 8], "shape_range": [[1, 32]], "type": "float16"}],
   "output_desc": [{"format": "ND", "shape": [-1, 8], "type": "float16"}]}
]
JSON
run atc --singleop=ops.json --output=op_models/ --soc_version=Ascend910B1
expect_exit 0
expect_stdout_contains "ATC run success"
expect_file op_models/0_Add_0_2_4_8_0_2_4_8_0_2_4_8.om
expect_file op_models/1_Mul_1_2_-1_8_1_2_-1_8_1_2_-1_8.om
[ "$(ls op_models | wc -l)" -eq 2 ] || fail "op_models holds $(ls op_models | wc -l) files"

run atc --mode=6 --om=op_models/0_Add_0_2_4_8_0_2_4_8_0_2_4_8.om
expect_exit 0
expect_stdout_contains "framework_type[SingleOp]"
expect_stdout_contains "inputs[x1:float32:[4,8]; x2:float32:[4,8]]"

$PY -c "
import numpy as np
rng = np.random.default_rng(3)
a = rng.standard_normal((4, 8)).astype(np.float32); b = rng.standard_normal((4, 8)).astype(np.float32)
a.tofile('a.bin'); b.tofile('b.bin'); (a + b).tofile('want.bin')
" || fail "numpy inputs"
run msame --model op_models/0_Add_0_2_4_8_0_2_4_8_0_2_4_8.om --input a.bin,b.bin --output out
expect_exit 0
got=$(find out -name '*.bin' | head -1)
cmp "$got" want.bin || fail "msame's Add output differs from numpy's a + b"

# Refused, with no model written.
bad() {  # bad CODE TEXT: the file TEXT fails with CODE and writes nothing
  rm -rf none && printf '%s' "$2" >bad.json
  run atc --singleop=bad.json --output=none --soc_version=Ascend910B1
  expect_exit 255
  expect_stdout_contains "$1"
  expect_no_file none
}
bad E10025 '{"op": "Add"}'
bad E10026 '[{"input_desc": []}]'
bad E10027 '[{"op": "Add", "input_desc": [{"format": "ND", "shape": [2], "type": "float7"}], "output_desc": [{"format": "ND", "shape": [2], "type": "float"}]}]'
bad "E10027: --singleop bad.json: op 0: single op 'Add' output 0: the description says float [3], the operator computes float [2]" \
  '[{"op": "Add", "input_desc": [{"format": "ND", "shape": [2], "type": "float"}, {"format": "ND", "shape": [2], "type": "float"}], "output_desc": [{"format": "ND", "shape": [3], "type": "float"}]}]'
bad E10029 '[{"op": "Add", "output_desc": [{"format": "ND", "shape": [2], "type": "float"}], "attr": [{"type": "int", "value": 1}]}]'
bad E10030 '[{"op": "Add", "output_desc": [{"format": "ND", "shape": [2], "type": "float"}], "attr": [{"name": "a", "type": "int", "value": "x"}]}]'
bad E10055 '[{"op": "Add", "input_desc": [{"format": "NC1HWC0", "shape": [2], "type": "float"}], "output_desc": [{"format": "ND", "shape": [2], "type": "float"}]}]'
# The second op fails: the first is not written either.
bad E2002 '[{"op": "Add", "input_desc": [{"format": "ND", "shape": [2], "type": "float"}, {"format": "ND", "shape": [2], "type": "float"}], "output_desc": [{"format": "ND", "shape": [2], "type": "float"}]}, {"op": "NoSuchOp", "input_desc": [{"format": "ND", "shape": [2], "type": "float"}], "output_desc": [{"format": "ND", "shape": [2], "type": "float"}]}]'
expect_stdout_contains "op 1"

run atc --singleop=missing.json --output=none --soc_version=Ascend910B1
expect_exit 255
expect_stdout_contains "E10024"
run atc --singleop=ops.json --model=x.onnx --framework=5 --output=none --soc_version=Ascend910B1
expect_exit 255
expect_stdout_contains "give it without --model and --framework"
run atc --singleop=ops.json --output=none
expect_exit 255
expect_stdout_contains "E10004"
expect_no_file none
