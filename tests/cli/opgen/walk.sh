# The whole walk of a custom operator, from an empty folder to a running model, as a user runs it
# (docs/opgen.md): install the SDK to a prefix; `opgen gen` a two-operator Ascend C project; build
# it as generated (the template kernels copy, and so do their references: the UT passes); write
# the kernels' Ascend C vector code and see the UT catch a reference that was not updated; write
# the references; run the UT and the ST (atc + msame + mscompare); convert a model using both
# operators with atc --op_plugin_path, run it with msame and match numpy; without the plugin both
# tools refuse, naming the operator and where they looked.
command -v /usr/bin/python3 >/dev/null && /usr/bin/python3 -c "import numpy" 2>/dev/null ||
  skip "numpy (python3-numpy) is needed for the reference"
run cmake --install "$BIN/.." --prefix "$PWD/prefix"
expect_exit 0
opgen="$PWD/prefix/bin/opgen"
expect_file "$opgen"
expect_file prefix/include/ascendc/kernel_operator.h
expect_file prefix/include/ascendc/register/op_def_registry.h

cat > ops.json <<'JSON'
[
  {"op": "AddReluCustom",
   "input_desc": [
     {"name": "x1", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "fp16"]},
     {"name": "x2", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "fp16"]}],
   "output_desc": [
     {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "fp16"]}]},
  {"op": "LeakyReluCustom",
   "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}],
   "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}],
   "attr": [{"name": "negative_slope", "param_type": "optional", "type": "float",
             "default_value": "0.01"}]}
]
JSON
start=$(date +%s.%N)
run "$opgen" gen -i ops.json -c ai_core-ascend310p -lan cpp -f onnx -out proj
expect_exit 0
expect_stdout_contains "generated 2 operator(s) for Ascend310P1 in proj: AddReluCustom, LeakyReluCustom"
for f in build.sh CMakeLists.txt CMakePresets.json cmake/func.cmake op_host/add_relu_custom.cpp \
    op_host/leaky_relu_custom_tiling.h op_kernel/leaky_relu_custom.cpp \
    framework/onnx_plugin/add_relu_custom_plugin.cpp testcases/ut/add_relu_custom_ut.cpp \
    testcases/st/leaky_relu_custom/leaky_relu_custom.onnx; do
  expect_file "proj/$f"
done
grep -q "\"value\": \"$PWD/prefix\"" proj/CMakePresets.json ||
  fail "CMakePresets.json does not name the SDK prefix opgen was installed to"

# As generated: opgen compile (build.sh) builds it, and the UT passes (the template kernel and
# its reference both copy).
run "$opgen" compile -i proj
expect_exit 0
gen_build=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "opgen gen + opgen compile (as generated): ${gen_build} s"
expect_stdout_contains "[INFO] compiled proj"
expect_stderr_contains "100% tests passed, 0 tests failed out of 2"
expect_file proj/build_out/vendors/customize/libcustomize_ops.so

# The kernels' Ascend C code, replacing the template's copy in Compute().
sed -i 's|    DataCopy(yLocal, x1Local, AlignedCount<DTYPE_Y>(count));|    Add(yLocal, x1Local, x2Local, count);\n    Relu(yLocal, yLocal, count);|' \
  proj/op_kernel/add_relu_custom.cpp
sed -i 's|    DataCopy(yLocal, xLocal, AlignedCount<DTYPE_Y>(count));|    LeakyRelu(yLocal, xLocal, (DTYPE_Y)tiling_.negative_slope, count);|' \
  proj/op_kernel/leaky_relu_custom.cpp
grep -q 'Relu(yLocal, yLocal, count)' proj/op_kernel/add_relu_custom.cpp || fail "the AddRelu kernel patch did not apply"
grep -q 'LeakyRelu(yLocal' proj/op_kernel/leaky_relu_custom.cpp || fail "the LeakyRelu kernel patch did not apply"
# The references still copy: the UT must fail on both.
run proj/build.sh
expect_exit_nonzero
expect_stdout_contains "0% tests passed, 2 tests failed out of 2"
# The references.
sed -i 's|  for (size_t i = 0; i < n; ++i) y\[i\] = x1\[i\];|  for (size_t i = 0; i < n; ++i) y[i] = std::max(0.0, (double)(float)(x1[i] + x2[i]));|' \
  proj/testcases/common/add_relu_custom_reference.h
sed -i 's|  for (size_t i = 0; i < n; ++i) y\[i\] = x\[i\];|  for (size_t i = 0; i < n; ++i) y[i] = x[i] >= 0 ? x[i] : x[i] * tiling.negative_slope;|' \
  proj/testcases/common/leaky_relu_custom_reference.h
sed -i 's|#include <cmath>|#include <algorithm>\n#include <cmath>|' proj/testcases/common/add_relu_custom_reference.h
run proj/build.sh
expect_exit 0
expect_stdout_contains "100% tests passed, 0 tests failed out of 2"

# The ST: each op's one-node model through atc, msame and mscompare.
run ctest --test-dir proj/build_out -L st --output-on-failure
expect_exit 0
expect_stdout_contains "100% tests passed, 0 tests failed out of 2"

# A model with both: y = AddRelu(LeakyRelu(x1, 0.2), x2).
plugin="$PWD/proj/build_out/vendors/customize"
proto=/usr/include/onnx/onnx.proto
cat > m.textproto <<'TXT'
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "custom"
  node { op_type: "LeakyReluCustom" name: "leaky" input: "x1" output: "a"
         attribute { name: "negative_slope" type: FLOAT f: 0.2 } }
  node { op_type: "AddReluCustom" name: "addrelu" input: "a" input: "x2" output: "y" }
  input { name: "x1" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } dim { dim_value: 1000 } } } } }
  input { name: "x2" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } dim { dim_value: 1000 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } dim { dim_value: 1000 } } } } }
}
TXT
protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < m.textproto > m.onnx ||
  fail "protoc could not encode the model"
common=(--model=m.onnx --framework=5 --soc_version=Ascend310P3 --precision_mode=force_fp32)

run prefix/bin/atc "${common[@]}" --output=none
expect_exit 255
expect_stdout_contains "E2002"
expect_stdout_contains "LeakyReluCustom"
expect_no_file none.om

run prefix/bin/atc "${common[@]}" --output=m --op_plugin_path="$plugin"
expect_exit 0
expect_file m.om

run prefix/bin/msame --model m.om --output out0
expect_exit 1
expect_stdout_contains "E2002"
expect_stdout_contains "LeakyReluCustom"
expect_stdout_contains "--op_plugin_path"
[ -z "$(ls out0 2>/dev/null)" ] || fail "msame wrote output without its plugin"

/usr/bin/python3 -c "
import numpy as np
r = np.random.default_rng(7)
r.uniform(-2, 2, (2, 3, 1000)).astype(np.float32).tofile('x1.bin')
r.uniform(-2, 2, (2, 3, 1000)).astype(np.float32).tofile('x2.bin')" || fail "numpy could not write the inputs"
run prefix/bin/msame --model m.om --input x1.bin,x2.bin --output out1 --op_plugin_path "$plugin"
expect_exit 0
run env ASCEND_CUSTOM_OPP_PATH="$plugin" prefix/bin/msame --model m.om --input x1.bin,x2.bin --output out2
expect_exit 0
for o in out1 out2; do
  /usr/bin/python3 - "$(ls $o/*/m_output_0.bin)" <<'PY' || fail "the custom operators' output differs from numpy in $o"
import sys, numpy as np
x1 = np.fromfile("x1.bin", dtype=np.float32)
x2 = np.fromfile("x2.bin", dtype=np.float32)
y = np.fromfile(sys.argv[1], dtype=np.float32)
a = np.where(x1 >= 0, x1, x1 * np.float32(0.2)).astype(np.float32)
ref = np.maximum(a + x2, 0)
sys.exit(0 if y.shape == ref.shape and np.allclose(y, ref, rtol=1e-6, atol=1e-7) else 1)
PY
done

# The same model in fp16: AddReluCustom runs its fp16 kernel, LeakyReluCustom (float only) its
# float kernel with the tensors converted around it.
sed 's/elem_type: 1 /elem_type: 10 /' m.textproto > m16.textproto
protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < m16.textproto > m16.onnx ||
  fail "protoc could not encode the fp16 model"
run prefix/bin/atc --model=m16.onnx --framework=5 --soc_version=Ascend310P3 \
  --precision_mode=must_keep_origin_dtype --output=m16 --op_plugin_path="$plugin"
expect_exit 0
/usr/bin/python3 -c "
import numpy as np
for n in ('x1', 'x2'): np.fromfile(n + '.bin', dtype=np.float32).astype(np.float16).tofile(n + '_16.bin')" ||
  fail "numpy could not write the fp16 inputs"
run prefix/bin/msame --model m16.om --input x1_16.bin,x2_16.bin --output out16 --op_plugin_path "$plugin"
expect_exit 0
/usr/bin/python3 - "$(ls out16/*/m16_output_0.bin)" <<'PY' || fail "the fp16 model's output differs from numpy"
import sys, numpy as np
x1 = np.fromfile("x1_16.bin", dtype=np.float16).astype(np.float32)
x2 = np.fromfile("x2_16.bin", dtype=np.float16).astype(np.float32)
y = np.fromfile(sys.argv[1], dtype=np.float16).astype(np.float32)
a = np.where(x1 >= 0, x1, x1 * np.float32(0.2)).astype(np.float16).astype(np.float32)
ref = np.maximum((a + x2).astype(np.float16).astype(np.float32), 0)
sys.exit(0 if y.shape == ref.shape and np.allclose(y, ref, rtol=1e-3, atol=1e-3) else 1)
PY

# A kernel that breaks a rule of the chip (a DataCopy to global memory of a length that is no
# whole number of 32-byte units): msame stops with EZ9999 naming the kernel, the block and the
# call, and writes no output.
sed -i 's|    DataCopyPad(yGm\[offset\], yLocal, {1, count \* (uint32_t)sizeof(DTYPE_Y), 0, 0, 0});|    DataCopy(yGm[offset], yLocal, count + 1);|' \
  proj/op_kernel/add_relu_custom.cpp
grep -q 'DataCopy(yGm\[offset\], yLocal, count + 1)' proj/op_kernel/add_relu_custom.cpp ||
  fail "the broken-kernel patch did not apply"
run cmake --build proj/build_out --target customize_ops
expect_exit 0
run prefix/bin/msame --model m.om --input x1.bin,x2.bin --output out3 --op_plugin_path "$plugin"
expect_exit 1
expect_stdout_contains "EZ9999"
expect_stdout_contains "kernel 'add_relu_custom' block 0: DataCopy"
[ -z "$(ls out3/*/ 2>/dev/null)" ] || fail "msame wrote output after a kernel error"
