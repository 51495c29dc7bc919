# An operator project in CANN 9's shape (tests/ascendc/framework_asc: find_package(ASC) and the
# npu_op_* functions, a preset naming the vendor, build.sh building `binary` then `package`)
# builds unchanged against the installed prefix; its package installs the vendor, and an aclnn
# application matches numpy on float32 and float16 rows (the SoftMax high-level API with its
# host tiling, rows split over several blocks). A package TYPE asc-tools does not make stops
# the configure step, naming it. ASC_CHECK_UNWRITTEN=1 turns an output the kernel left in part
# into an error of the launch. The installed package also serves atc, msame and pyACL (below).
command -v /usr/bin/python3 >/dev/null && /usr/bin/python3 -c "import numpy, onnx" 2>/dev/null ||
  skip "numpy and onnx (python3-numpy, python3-onnx) are needed for the golden data and the model"
run cmake --install "$BIN/.." --prefix "$PWD/prefix"
expect_exit 0
expect_file prefix/lib/cmake/ASC/asc-config.cmake
cp -r "$ROOT/tests/ascendc/framework_asc" proj
export PATH="/usr/bin:$PATH"
san=""
ldd "$(find prefix -name libasccore.so | head -1)" | grep -q libasan && san="-fsanitize=address,undefined"
export CXXFLAGS="$san" LDFLAGS="$san"
source prefix/set_env.sh
export PATH="/usr/bin:$PATH"

run bash -c "cd proj/RowSoftmaxCustom && bash build.sh"
expect_exit 0
expect_file proj/RowSoftmaxCustom/build_out/autogen/aclnn_row_softmax_custom.h
expect_file proj/RowSoftmaxCustom/build_out/vendors/rowsoftmax/op_api/lib/libcust_opapi.so
run bash -c "proj/RowSoftmaxCustom/build_out/custom_opp_*.run"
expect_exit 0
expect_stdout_contains "SUCCESS: vendor rowsoftmax installed in $PWD/prefix/opp/vendors/rowsoftmax"
run bash proj/AclNN/run.sh
expect_exit 0
[ "$(grep -c "test pass" "$STDOUT")" = 2 ] || fail "float32 and float16 should both pass"
expect_stdout_contains "37 x 64 fp32 done"
expect_stdout_contains "20 x 128 fp16 done"

# The installed package serves atc, msame and AscendCL applications as CANN's serve: found
# through $ASCEND_OPP_PATH/vendors/config.ini, with no --op_plugin_path or
# ASCEND_CUSTOM_OPP_PATH. An ONNX node of the custom type becomes the operator; the OM runs
# through msame and through a pyACL application, and matches numpy's softmax.
/usr/bin/python3 - <<'PY' || fail "could not write the model"
import numpy as np
from onnx import TensorProto, helper, save
node = helper.make_node("RowSoftmaxCustom", ["x"], ["y"], name="sm")
g = helper.make_graph([node], "rows", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [37, 64])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [37, 64])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
m.ir_version = 8
save(m, "rows.onnx")
x = np.random.default_rng(5).uniform(-3, 3, (37, 64)).astype(np.float32)
x.tofile("x.bin")
e = np.exp(x.astype(np.float64) - x.max(1, keepdims=True))
np.save("want.npy", e / e.sum(1, keepdims=True))
PY
run env -u ASCEND_CUSTOM_OPP_PATH prefix/bin/atc --model=rows.onnx --framework=5 --output=rows --soc_version=Ascend910B1
expect_exit 0
expect_file rows.om
run env -u ASCEND_CUSTOM_OPP_PATH prefix/bin/msame --model rows.om --input x.bin --output rows_out
expect_exit 0
expect_close_npy "$(ls rows_out/*/rows_output_0.bin)" want.npy 1e-6
if ls prefix/python/site-packages/acl.*.so >/dev/null 2>&1 && ! ldd prefix/python/site-packages/acl.*.so | grep -q libasan; then
  rm -rf py_out && mkdir py_out
  run env -u ASCEND_CUSTOM_OPP_PATH /usr/bin/python3 "$ROOT/tests/acl/pyacl_app.py" rows.om py_out --input x.bin
  expect_exit 0
  CHECKS=$((CHECKS + 1))
  cmp py_out/output_0.bin "$(ls rows_out/*/rows_output_0.bin)" || fail "pyACL's output differs from msame's"
  # An ASCEND_CUSTOM_OPP_PATH folder that does not exist: AscendCL warns and goes on (the
  # installed package still serves); msame, told the same, stops.
  rm -rf py_out2 && mkdir py_out2
  run env ASCEND_CUSTOM_OPP_PATH="$PWD/missing" /usr/bin/python3 "$ROOT/tests/acl/pyacl_app.py" rows.om py_out2 --input x.bin
  expect_exit 0
  expect_stderr_contains "ASCEND_CUSTOM_OPP_PATH's $PWD/missing was not loaded"
  expect_file py_out2/output_0.bin
fi
run env ASCEND_CUSTOM_OPP_PATH="$PWD/missing" prefix/bin/msame --model rows.om --input x.bin --output strict_out
expect_exit_nonzero
expect_stdout_contains "$PWD/missing"
expect_no_file strict_out
# --op_plugin_path names the folders to use instead: the installed package is not read, and
# the error says where custom operators were looked for.
mkdir -p elsewhere
run env -u ASCEND_CUSTOM_OPP_PATH prefix/bin/atc --model=rows.onnx --framework=5 --output=nope --soc_version=Ascend910B1 --op_plugin_path="$PWD/elsewhere"
expect_exit_nonzero
expect_stdout_contains "unsupported operator 'RowSoftmaxCustom' (node 'sm')"
expect_stdout_contains "custom operators looked for in: $PWD/elsewhere"
expect_no_file nope.om
# A vendor config.ini lists but that is not installed, and one whose package does not load, are
# warnings: the others still serve.
cp prefix/opp/vendors/config.ini config.ini.saved
mkdir -p prefix/opp/vendors/broken/op_impl/ai_core/tbe/op_tiling/lib/linux/"$(uname -m)"
echo "not a library" > prefix/opp/vendors/broken/op_impl/ai_core/tbe/op_tiling/lib/linux/"$(uname -m)"/libcust_opmaster_rt2.0.so
mkdir -p prefix/opp/vendors/broken/op_impl/ai_core/tbe/kernel/ascend910b
echo "load_priority=ghost, broken ,rowsoftmax" > prefix/opp/vendors/config.ini
run env -u ASCEND_CUSTOM_OPP_PATH prefix/bin/atc --model=rows.onnx --framework=5 --output=rows2 --soc_version=Ascend910B1
expect_exit 0
expect_stderr_contains "lists vendor 'ghost', which has no folder"
expect_stderr_contains "the custom operator package $PWD/prefix/opp/vendors/broken was not loaded"
expect_file rows2.om
cp config.ini.saved prefix/opp/vendors/config.ini
rm -rf prefix/opp/vendors/broken

# A kernel that skips block 0's first row: without a check the output holds whatever the
# memory did (the application's own comparison fails); with ASC_CHECK_UNWRITTEN=1 the launch
# fails, naming the kernel and the unwritten range.
sed -i 's/for (uint32_t r = 0; r < count_; ++r)/for (uint32_t r = GetBlockIdx() == 0 ? 1 : 0; r < count_; ++r)/' \
  proj/RowSoftmaxCustom/op_kernel/row_softmax_custom.cpp
run bash -c "cd proj/RowSoftmaxCustom && bash build.sh && ./build_out/custom_opp_*.run"
expect_exit 0
run bash proj/AclNN/run.sh
expect_exit_nonzero
expect_stdout_contains "[ERROR] result error"
run env ASC_CHECK_UNWRITTEN=1 bash proj/AclNN/run.sh
expect_exit_nonzero
expect_stderr_contains "aclnnRowSoftmaxCustom: kernel 'row_softmax_custom' left 64 of the 2368 elements of output 0 unwritten (the first at 0, the last at 63)"

sed -i 's/TYPE RUN/TYPE SHARED/' proj/RowSoftmaxCustom/CMakeLists.txt
run bash -c "cd proj/RowSoftmaxCustom && bash build.sh"
expect_exit_nonzero
expect_stderr_contains "asc-tools makes RUN packages"
