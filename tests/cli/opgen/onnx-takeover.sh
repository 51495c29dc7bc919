# A framework plugin that takes a standard ONNX operator over, as CANN's LeakyReluCustom sample
# does: framework/onnx_plugin maps ai.onnx::13::LeakyRelu to LeakyReluCustom with a parse function
# of its own, which reads the node's attributes from the JSON text CANN's parser gives it
# (op_src's "attribute") and sets the custom operator's negative_slope. atc with the plugin turns
# a plain LeakyRelu model at opset 13 into the custom operator (alpha 0.2 read through the parse
# function), msame runs it against numpy; at opset 12 the built-in LeakyRelu stays; a node the
# parse function refuses stops atc, naming node and plugin.
command -v /usr/bin/python3 >/dev/null && /usr/bin/python3 -c "import numpy" 2>/dev/null ||
  skip "numpy (python3-numpy) is needed for the reference"
run cmake --install "$BIN/.." --prefix "$PWD/prefix"
expect_exit 0
cat > ops.json <<'JSON'
[{"op": "LeakyReluCustom",
  "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "attr": [{"name": "negative_slope", "param_type": "optional", "type": "float",
            "default_value": "0.01"}]}]
JSON
run prefix/bin/opgen gen -i ops.json -c ai_core-ascend310p -lan cpp -f onnx -out proj
expect_exit 0
sed -i 's|    DataCopy(yLocal, xLocal, AlignedCount<DTYPE_Y>(count));|    LeakyRelu(yLocal, xLocal, (DTYPE_Y)tiling_.negative_slope, count);|' \
  proj/op_kernel/leaky_relu_custom.cpp
sed -i 's|  for (size_t i = 0; i < n; ++i) y\[i\] = x\[i\];|  for (size_t i = 0; i < n; ++i) y[i] = x[i] >= 0 ? x[i] : x[i] * tiling.negative_slope;|' \
  proj/testcases/common/leaky_relu_custom_reference.h
grep -q 'LeakyRelu(yLocal' proj/op_kernel/leaky_relu_custom.cpp || fail "the kernel patch did not apply"
# The plugin's framework file, written as CANN's samples write theirs (C++11, ge::Operator).
cat > proj/framework/onnx_plugin/leaky_relu_custom_plugin.cpp <<'CPP'
#include <cstdlib>
#include <string>

#include "graph/operator.h"
#include "register/register.h"

using namespace ge;

namespace domi {
// alpha's "f" in CANN's JSON text of the node's attributes; FAILED when the node has none.
Status ParseLeakyRelu(const ge::Operator& op_src, ge::Operator& op_dest) {
  AscendString attrs;
  if (op_src.GetAttr("attribute", attrs) != ge::GRAPH_SUCCESS) return FAILED;
  const string text = attrs.GetString();
  const size_t name = text.find("\"name\": \"alpha\"");
  if (name == string::npos) return FAILED;
  const size_t open = text.rfind('{', name);
  const size_t f = text.find("\"f\": \"", open);
  if (f == string::npos || f > text.find('}', name)) return FAILED;
  op_dest.SetAttr("negative_slope", static_cast<float>(atof(text.c_str() + f + 6)));
  return SUCCESS;
}

REGISTER_CUSTOM_OP("LeakyReluCustom")
    .FrameworkType(ONNX)
    .OriginOpType({ge::AscendString("ai.onnx::11::LeakyReluCustom"),
                   ge::AscendString("ai.onnx::13::LeakyRelu")})
    .ParseParamsByOperatorFn(ParseLeakyRelu)
    .ImplyType(ImplyType::TVM);
}  // namespace domi
CPP
run prefix/bin/opgen compile -i proj
expect_exit 0
plugin="$PWD/proj/build_out/vendors/customize"

proto=/usr/include/onnx/onnx.proto
model() {  # model OPSET ATTRIBUTE-TEXT NAME: one LeakyRelu node over [2,3,1000]
  cat > "$3.textproto" <<TXT
ir_version: 8
opset_import { domain: "" version: $1 }
graph {
  name: "g"
  node { op_type: "LeakyRelu" name: "leaky" input: "x" output: "y" $2 }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } dim { dim_value: 1000 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } dim { dim_value: 1000 } } } } }
}
TXT
  protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < "$3.textproto" > "$3.onnx" ||
    fail "protoc could not encode $3"
}
model 13 'attribute { name: "alpha" type: FLOAT f: 0.2 }' m13
model 12 'attribute { name: "alpha" type: FLOAT f: 0.2 }' m12
model 13 '' noalpha
common=(--framework=5 --soc_version=Ascend310P3 --precision_mode=force_fp32 --op_plugin_path="$plugin")

run prefix/bin/atc --model=m13.onnx --output=m13 "${common[@]}"
expect_exit 0
run prefix/bin/atc --mode=1 --om=m13.om --json=m13.json
expect_exit 0
grep -q '"LeakyReluCustom"' m13.json || fail "the opset-13 LeakyRelu did not become LeakyReluCustom"
run prefix/bin/atc --model=m12.onnx --output=m12 "${common[@]}"
expect_exit 0
run prefix/bin/atc --mode=1 --om=m12.om --json=m12.json
expect_exit 0
grep -q '"LeakyReluCustom"' m12.json && fail "the plugin took over an opset-12 LeakyRelu (it names 13)"
grep -q '"LeakyRelu"' m12.json || fail "the opset-12 model has no built-in LeakyRelu"

# A node the parse function refuses (no alpha): atc stops, naming the node and the plugin.
run prefix/bin/atc --model=noalpha.onnx --output=noalpha "${common[@]}"
expect_exit_nonzero
expect_stdout_contains "node 'leaky' (LeakyRelu)"
expect_stdout_contains 'REGISTER_CUSTOM_OP("LeakyReluCustom")'
expect_no_file noalpha.om

/usr/bin/python3 -c "
import numpy as np
np.random.default_rng(3).uniform(-2, 2, (2, 3, 1000)).astype(np.float32).tofile('x.bin')" ||
  fail "numpy could not write the input"
run prefix/bin/msame --model m13.om --input x.bin --output out --op_plugin_path "$plugin"
expect_exit 0
/usr/bin/python3 - "$(ls out/*/m13_output_0.bin)" <<'PY' || fail "LeakyReluCustom's output differs from numpy at alpha 0.2"
import sys, numpy as np
x = np.fromfile("x.bin", dtype=np.float32)
y = np.fromfile(sys.argv[1], dtype=np.float32)
ref = np.where(x >= 0, x, x * np.float32(0.2)).astype(np.float32)
sys.exit(0 if y.shape == ref.shape and np.array_equal(y, ref) else 1)
PY

# Installed as a package (its .run into $ASCEND_OPP_PATH/vendors, as CANN's users install
# theirs), the plugin serves atc and msame with no --op_plugin_path: config.ini lists it.
ls proj/build_out/custom_opp_*.run >/dev/null 2>&1 || fail "opgen compile made no package"
run env ASCEND_OPP_PATH="$PWD/prefix/opp" bash -c "proj/build_out/custom_opp_*.run --quiet"
expect_exit 0
expect_file prefix/opp/vendors/config.ini
common_installed=(--framework=5 --soc_version=Ascend310P3 --precision_mode=force_fp32)
# atc --list_ops shows the installed custom operator and what its plugin takes over.
run env -u ASCEND_CUSTOM_OPP_PATH ASCEND_OPP_PATH="$PWD/prefix/opp" prefix/bin/atc --list_ops
expect_exit 0
grep -qE "^LeakyReluCustom +[0-9]+\+ +LeakyReluCustom +AI_CORE +Ascend C custom operator" "$STDOUT" ||
  fail "--list_ops does not list the installed custom operator"
expect_stdout_contains "Taken over by custom operators (framework plugins):"
grep -qE '^LeakyRelu +13 +-> LeakyReluCustom \(REGISTER_CUSTOM_OP\("LeakyReluCustom"\)\)' "$STDOUT" ||
  fail "--list_ops does not show the opset-13 LeakyRelu taken over"
run env -u ASCEND_CUSTOM_OPP_PATH -u ASCEND_OPP_PATH prefix/bin/atc --list_ops
expect_exit 0
expect_stdout_not_contains "LeakyReluCustom"
run env -u ASCEND_CUSTOM_OPP_PATH ASCEND_OPP_PATH="$PWD/prefix/opp" prefix/bin/atc --model=m13.onnx --output=m13i "${common_installed[@]}"
expect_exit 0
run prefix/bin/atc --mode=1 --om=m13i.om --json=m13i.json
expect_exit 0
grep -q '"LeakyReluCustom"' m13i.json || fail "the installed package did not take the opset-13 LeakyRelu over"
run env -u ASCEND_CUSTOM_OPP_PATH ASCEND_OPP_PATH="$PWD/prefix/opp" prefix/bin/msame --model m13i.om --input x.bin --output outi
expect_exit 0
CHECKS=$((CHECKS + 1))
cmp "$(ls out/*/m13_output_0.bin)" "$(ls outi/*/m13i_output_0.bin)" || fail "the installed package's run differs"
# Without the package's folder on any path, msame names the operator and where it looked.
run env -u ASCEND_CUSTOM_OPP_PATH -u ASCEND_OPP_PATH prefix/bin/msame --model m13i.om --input x.bin --output outn
expect_exit_nonzero
expect_stdout_contains "is the custom operator LeakyReluCustom"
expect_stdout_contains "install its package into \$ASCEND_OPP_PATH/vendors"
