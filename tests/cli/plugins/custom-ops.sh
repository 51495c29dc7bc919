# Custom-operator plugins (asc/ops/plugin.h): a model using two custom ops converts with
# atc --op_plugin_path and runs with msame --op_plugin_path (or ASCEND_CUSTOM_OPP_PATH), matching
# a numpy reference. Without the plugin both tools refuse, naming the operator and where they
# looked; a plugin for another ABI, a library that is no plugin, and a plugin that registers an
# existing operator are refused by name. No OM is left behind on failure.
plugins="$BIN/../tests/plugins"
[ -f "$plugins/v0/libasc_test_op_plugin_0.so" ] || fail "the test plugin was not built ($plugins)"
proto=/usr/include/onnx/onnx.proto
cat > m.textproto <<'TXT'
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "custom"
  node { op_type: "AscScale" name: "scale" input: "x" output: "s"
         attribute { name: "alpha" type: FLOAT f: 3 } }
  node { op_type: "AscSquarePlus" name: "sq" input: "s" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 4 } dim { dim_value: 4 } dim { dim_value: 4 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 4 } dim { dim_value: 4 } dim { dim_value: 4 } } } } }
}
TXT
protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < m.textproto > m.onnx || fail "protoc could not encode the model"
common=(--model=m.onnx --framework=5 --soc_version=Ascend310P3 --precision_mode=force_fp32)

# Without the plugin: E2002 naming the op, no OM.
run atc "${common[@]}" --output=none
expect_exit 255
expect_stdout_contains "E2002"
expect_stdout_contains "AscScale"
expect_no_file none.om

# With it: converts; the OM records the custom ops it needs.
run atc "${common[@]}" --output=m --op_plugin_path="$plugins/v0"
expect_exit 0
run atc --mode=1 --om=m.om --json=m.json --op_plugin_path="$plugins/v0"
expect_exit 0
grep -q '"AscScale (plugin ' m.json || fail "the OM does not record its custom operators"

# msame without the plugin: E2002 naming the op, the plugin and the option; no output.
run msame --model m.om --output out0
expect_exit 1
expect_stdout_contains "E2002"
expect_stdout_contains "custom operator AscScale (plugin "
expect_stdout_contains "--op_plugin_path"
[ -z "$(ls out0 2>/dev/null)" ] || fail "msame wrote output without its plugin"

# msame with it, by option and by the real variable: (3x)^2 + 1.
/usr/bin/python3 -c "import numpy as np; np.linspace(-2, 2, 64, dtype=np.float32).reshape(1,4,4,4).tofile('x.bin')" ||
  fail "numpy could not write the input"
run msame --model m.om --input x.bin --output out1 --op_plugin_path "$plugins/v0"
expect_exit 0
run env ASCEND_CUSTOM_OPP_PATH="$plugins/v0" msame --model m.om --input x.bin --output out2
expect_exit 0
for o in out1 out2; do
  /usr/bin/python3 - "$(ls $o/*/m_output_0.bin)" <<'PY' || fail "custom-op output differs from numpy in $o"
import sys, numpy as np
x = np.fromfile("x.bin", dtype=np.float32)
y = np.fromfile(sys.argv[1], dtype=np.float32)
ref = (3 * x) ** 2 + 1
sys.exit(0 if y.shape == ref.shape and np.allclose(y, ref, rtol=1e-6, atol=0) else 1)
PY
done

# Broken plugins are refused by name, and nothing is written.
run atc "${common[@]}" --output=old --op_plugin_path="$plugins/v1"
expect_exit 255
expect_stdout_contains "built for plugin ABI 999"
expect_stdout_contains "libasc_test_op_plugin_1.so"
expect_no_file old.om
run atc "${common[@]}" --output=dup --op_plugin_path="$plugins/v2"
expect_exit 255
expect_stdout_contains "operator 'Relu' is already registered (in-tree)"
expect_stdout_contains "libasc_test_op_plugin_2.so"
expect_no_file dup.om
mkdir notplugin && cp "$(ls /usr/lib/x86_64-linux-gnu/libz.so.1* | head -1)" notplugin/libz.so
run atc "${common[@]}" --output=np --op_plugin_path=notplugin
expect_exit 255
expect_stdout_contains "is no asc-tools operator plugin"
expect_no_file np.om
run atc "${common[@]}" --output=nodir --op_plugin_path=no/such/dir
expect_exit 255
expect_stdout_contains "E10001"
expect_stdout_contains "no/such/dir"
expect_no_file nodir.om
