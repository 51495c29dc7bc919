# A single-operator AscendCL application in the shape of the samples' AclOfflineModel and
# AclOnlineModel folders (tests/acl/singleop_app) builds unchanged against the installed prefix
# and runs: models atc --singleop wrote, loaded with aclopSetModelDir and run with
# aclopExecuteV2 (a static fp32 Add, a dynamic fp16 Mul at two sizes of its range), and an op
# compiled at run time by aclopCompileAndExecuteV2; each output equals numpy's. Calls no model
# takes get AscendCL's codes: 100020 (type), 100021 (inputs: dtype, a dim outside the range),
# 100023 (attributes).
PY=/usr/bin/python3
build="$BIN/.."
run cmake --install "$build" --prefix "$PWD/prefix"
expect_exit 0
expect_file prefix/runtime/include/acl/acl_op_compiler.h
expect_file prefix/runtime/lib64/libacl_op_compiler.so
cp -r "$ROOT/tests/acl/singleop_app" app
rm -rf app/out
# shellcheck disable=SC1091
source prefix/set_env.sh
export DDK_PATH="$ASCEND_HOME_PATH" NPU_HOST_LIB="$ASCEND_HOME_PATH/runtime/lib64/stub"
san=""
ldd prefix/runtime/lib64/libascendcl.so | grep -q libasan && san="-fsanitize=address,undefined"
run cmake -S app -B app/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="$san"
expect_exit 0
run cmake --build app/build
expect_exit 0
app=app/out/op_app
expect_file $app

cat >ops.json <<'JSON'
[
  {"op": "Add",
   "input_desc": [{"name": "x", "format": "ND", "shape": [4, 8], "type": "float"},
                  {"name": "y", "format": "ND", "shape": [4, 8], "type": "float"}],
   "output_desc": [{"name": "z", "format": "ND", "shape": [4, 8], "type": "float"}]},
  {"op": "Mul",
   "input_desc": [{"format": "ND", "shape": [-1, 8], "shape_range": [[1, 32]], "type": "float16"},
                  {"format": "ND", "shape": [-1, 8], "shape_range": [[1, 32]], "type": "float16"}],
   "output_desc": [{"format": "ND", "shape": [-1, 8], "type": "float16"}]}
]
JSON
run atc --singleop=ops.json --output=op_models --soc_version=Ascend310P3
expect_exit 0

data() {  # data DTYPE ROWS COLS OP: x0.bin, x1.bin and want.bin (numpy's OP of the two)
  $PY -c "
import numpy as np
rng = np.random.default_rng($2)
a = rng.uniform(-4, 4, ($2, $3)).astype(np.$1); b = rng.uniform(-4, 4, ($2, $3)).astype(np.$1)
a.tofile('x0.bin'); b.tofile('x1.bin'); (a $4 b).astype(np.$1).tofile('want.bin')
" || fail "numpy data"
}
data float32 4 8 +
run $app offline op_models Add float 4 8
expect_exit 0
expect_stdout_contains "aclopSetModelDir 0"
expect_stdout_contains "aclopExecuteV2 Add 0"
cmp y.bin want.bin || fail "Add: the output differs from numpy's"
for rows in 5 32; do
  data float16 $rows 8 '*'
  run $app offline op_models Mul float16 $rows 8
  expect_exit 0
  cmp y.bin want.bin || fail "Mul at $rows rows: the output differs from numpy's"
done

# Compiled at run time: no model folder.
data float32 3 5 -
run $app online Sub float 3 5
expect_exit 0
expect_stdout_contains "aclopCompileAndExecuteV2 Sub 0"
cmp y.bin want.bin || fail "Sub compiled online: the output differs from numpy's"

data float32 4 8 +
run $app mismatch op_models
expect_exit 0
expect_stdout_contains "type 100020"
expect_stdout_contains "dtype 100021"
expect_stdout_contains "range 100021"
expect_stdout_contains "dim 0 is 33, outside the model's range [1, 32]"
expect_stdout_contains "attr 100023"

# A folder without single-operator models.
mkdir empty
run $app offline empty Add float 4 8
expect_exit 1
expect_stdout_contains "aclopSetModelDir 100003"
expect_stdout_contains "holds no single-operator model"

# A damaged single-operator model in the folder: the load fails, naming the file (E10041).
mkdir damaged
head -c 600 op_models/0_Add_0_2_4_8_0_2_4_8_0_2_4_8.om >damaged/0_Add_0_2_4_8_0_2_4_8_0_2_4_8.om
run $app offline damaged Add float 4 8
expect_exit 1
expect_stdout_contains "aclopSetModelDir 100025"
expect_stdout_contains "E10041"
