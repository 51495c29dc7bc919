# The first step of CANN's own operator-project build (its cmake/func.cmake `opbuild`): op_host
# compiled as C++11 with the old C++ ABI against <prefix>/include, linked with -lexe_graph
# -lregister -ltiling_api from <prefix>/lib64, then <prefix>/toolkit/tools/opbuild/op_build
# writes the aclnn sources, which compile the same way (cmake/intf.cmake's flags) into
# libcust_opapi.so; and CANN's ops-info files (aic-<soc>-ops-info.ini) and op_proto.h/.cc. An
# op_host with a DYNAMIC input gets an aclTensorList, one with a DYNAMIC output is refused,
# naming it. Then opc compiles a kernel as the
# project's binary target asks, and a package laid out as CANN's runs through the aclnn API.
run cmake --install "$BIN/.." --prefix "$PWD/prefix"
expect_exit 0
P="$PWD/prefix"
expect_file "$P/lib64/libgraph.so"
grep -q "^Version=" "$P/compiler/version.info" || fail "compiler/version.info has no Version= line"
src="$ROOT/tests/ascendc/framework_launch/ReduceSumCustom/op_host"
flags=(-g -fPIC -std=c++11 -D_GLIBCXX_USE_CXX11_ABI=0 -Wall -Werror)
mkdir -p autogen
g++ "${flags[@]}" -shared "$src/reduce_sum_custom.cpp" -I "$P/include" -L "$P/lib64" \
  -lexe_graph -lregister -ltiling_api -o autogen/libascend_all_ops.so ||
  fail "op_host did not build as CANN's opbuild step builds it"
run "$P/toolkit/tools/opbuild/op_build" autogen/libascend_all_ops.so autogen
expect_exit 0
expect_stdout_contains "op_proto.cc, aclnn_reduce_sum_custom.h, aclnn_reduce_sum_custom.cpp in autogen"
grep -q "aclnnReduceSumCustomGetWorkspaceSize" autogen/aclnn_reduce_sum_custom.h ||
  fail "no GetWorkspaceSize in the aclnn header"
# CANN's ops-info files, one per AddConfig soc, which the project's Python scripts read.
expect_stdout_contains "aic-ascend910b-ops-info.ini, aic-ascend310p-ops-info.ini, op_proto.h, op_proto.cc"
for soc in ascend910b ascend310p; do
  ini=autogen/aic-$soc-ops-info.ini
  expect_file "$ini"
  for line in "[ReduceSumCustom]" "input0.name=x" "input0.dtype=float32" "input0.format=ND" \
      "input0.paramType=required" "output0.name=y" "attr.list=scale" "attr_scale.type=float" \
      "attr_scale.paramType=optional" "attr_scale.defaultValue=1" "opFile.value=reduce_sum_custom" \
      "opInterface.value=reduce_sum_custom" "dynamicShapeSupport.flag=true"; do
    grep -qxF -- "$line" "$ini" || fail "$ini lacks the line '$line'"
  done
done
expect_file autogen/op_proto.cc
# An ONNX framework plugin as CANN's projects write it (framework/onnx_plugin: ge::Operator,
# a parse function of its own, OriginOpType of another type), built as their cmake builds it.
cat > onnx_plugin.cc <<'CPP'
#include <cstdlib>
#include "graph/operator.h"
#include "register/register.h"
using namespace ge;
namespace domi {
Status ParseOnnxParamsLeaky(const ge::Operator& op_src, ge::Operator& op_dest) {
  AscendString attrs;
  if (ge::GRAPH_SUCCESS != op_src.GetAttr("attribute", attrs)) return FAILED;
  string text = attrs.GetString();
  op_dest.SetAttr("negative_slope", static_cast<float>(atof(text.c_str())));
  return SUCCESS;
}
REGISTER_CUSTOM_OP("LeakyReluCustom")
    .FrameworkType(ONNX)
    .OriginOpType({ge::AscendString("ai.onnx::11::LeakyRelu"),
                   ge::AscendString("ai.onnx::13::LeakyRelu")})
    .ParseParamsByOperatorFn(ParseOnnxParamsLeaky)
    .ImplyType(ImplyType::TVM);
}  // namespace domi
CPP
g++ "${flags[@]}" -fvisibility=hidden -shared onnx_plugin.cc -I "$P/include" -L "$P/lib64" -lgraph \
  -lregister -o libcust_onnx_parsers.so || fail "an ONNX framework plugin did not build as CANN's projects build it"
# ge::TypeUtils, which op_host tiling code calls (C++11, old ABI as above).
printf '#include "graph/utils/type_utils.h"\nint main() { uint32_t n = 0;\n  return ge::TypeUtils::GetDataTypeLength(ge::DT_FLOAT16, n) && n == 2 ? 0 : 1; }\n' > tu.cpp
g++ "${flags[@]}" tu.cpp -I "$P/include" -o tu && ./tu || fail "ge::TypeUtils::GetDataTypeLength"
g++ "${flags[@]}" -c autogen/op_proto.cc -I autogen -o autogen/op_proto.o ||
  fail "op_proto.cc did not compile with CANN's project flags"
g++ "${flags[@]}" -fvisibility=hidden -shared autogen/aclnn_reduce_sum_custom.cpp -I "$P/include" \
  -I autogen -L "$P/lib64" -lascendcl -lnnopbase -o autogen/libcust_opapi.so ||
  fail "the aclnn source did not build with CANN's project flags"
nm -D --defined-only autogen/libcust_opapi.so | grep -q " aclnnReduceSumCustom$" ||
  fail "libcust_opapi.so does not export aclnnReduceSumCustom"

# A DYNAMIC input (AddN's tensor list) is an aclTensorList in the aclnn API, and the source
# compiles as the project compiles it; a DYNAMIC output is refused, naming it, with no file.
for out in REQUIRED DYNAMIC; do
  cat > dyn.cpp <<CPP
#include "register/op_def_registry.h"
namespace ops {
class AddNCustom : public OpDef {
public:
    explicit AddNCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType($out).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    }
};
OP_ADD(AddNCustom);
}
CPP
  g++ "${flags[@]}" -shared dyn.cpp -I "$P/include" -L "$P/lib64" -lregister -o libdyn.so ||
    fail "the DYNAMIC op_host did not build"
  rm -rf dynout
  run "$P/toolkit/tools/opbuild/op_build" libdyn.so dynout
  if [ $out = REQUIRED ]; then
    expect_exit 0
    grep -q "const aclTensorList \*x," dynout/aclnn_add_n_custom.h ||
      fail "the DYNAMIC input is not an aclTensorList in aclnn_add_n_custom.h"
    g++ "${flags[@]}" -fvisibility=hidden -shared dynout/aclnn_add_n_custom.cpp -I "$P/include" \
      -I dynout -L "$P/lib64" -lascendcl -lnnopbase -o dynout/libcust_opapi.so ||
      fail "the aclnn source of a DYNAMIC input did not build with CANN's project flags"
  else
    expect_exit 1
    expect_stderr_contains "custom operator AddNCustom: output 'y' is DYNAMIC (a tensor list)"
    expect_no_file dynout/aclnn_add_n_custom.h
  fi
done

# The kernel of one dtype column, as CANN's project `binary` target asks opc for it (the
# project's build tree, its generated implementation file beside the kernel source, the param
# JSON its scripts write), then a vendor folder laid out as CANN's package: the op_host library
# in op_impl/.../op_tiling, the kernel in op_impl/.../kernel/<unit>/<op>/, the aclnn library in
# op_api. The AclNNInvocation application of tests/ascendc/framework_launch runs on it.
proj="$PWD/cannproj"
mkdir -p "$proj/op_host" "$proj/build_out/op_kernel/binary/ascend910b/src" "$proj/build_out/op_kernel/binary/ascend910b/bin"
cp "$src"/* "$proj/op_host/"
printf 'CMAKE_HOME_DIRECTORY:INTERNAL=%s\n' "$proj" > "$proj/build_out/CMakeCache.txt"
bindir="$proj/build_out/op_kernel/binary/ascend910b"
cp "$ROOT/tests/ascendc/framework_launch/ReduceSumCustom/op_kernel/reduce_sum_custom.cpp" "$bindir/src/"
printf 'op_type = "ReduceSumCustom"\norigin_func_name = "reduce_sum_custom"\nascendc_src_file = "reduce_sum_custom.cpp"\n' \
  > "$bindir/src/ReduceSumCustom.py"
cat > "$bindir/param.json" <<'JSON'
{"op_type": "ReduceSumCustom", "op_list": [{"bin_filename": "ReduceSumCustom_0123",
  "inputs": [{"name": "x", "index": 0, "dtype": "float32", "format": "ND", "paramType": "required", "shape": [-2]}],
  "outputs": [{"name": "y", "index": 0, "dtype": "float32", "format": "ND", "paramType": "required", "shape": [-2]}],
  "attrs": [{"name": "scale", "dtype": "float", "value": 0.0}]}]}
JSON
cd "$bindir" || fail "no binary folder"
run "$P/bin/opc" src/ReduceSumCustom.py --main_func=reduce_sum_custom --input_param=param.json \
  --soc_version=Ascend910B1 --output=bin/reduce_sum_custom --impl_mode= --simplified_key_mode=0 --op_mode=dynamic
expect_exit 0
expect_file bin/reduce_sum_custom/ReduceSumCustom_0123.o
expect_file bin/reduce_sum_custom/ReduceSumCustom_0123.json
for field in '"binFileName": "ReduceSumCustom_0123"' '"binFileSuffix": ".o"' '"coreType": "VectorCore"' \
    '"simplifiedKey": ["ReduceSumCustom/d=0,p=0/0,2", "ReduceSumCustom/d=1,p=0/0,2"]' '"staticKey"'; do
  grep -qF -- "$field" bin/reduce_sum_custom/ReduceSumCustom_0123.json ||
    fail "the kernel description lacks $field"
done
[ -z "$(ls bin/reduce_sum_custom | grep -v 'ReduceSumCustom_0123\.')" ] ||
  fail "opc left other files in --output"
# Without the tiling header the project registers, opc stops, naming what it looked for.
mv "$proj/op_host/reduce_sum_custom_tiling.h" "$proj/tiling.h.away"
run "$P/bin/opc" src/ReduceSumCustom.py --main_func=reduce_sum_custom --input_param=param.json \
  --soc_version=Ascend910B1 --output=bin/other
expect_exit 1
expect_stderr_contains "no header of the project registers ReduceSumCustom's tiling"
mv "$proj/tiling.h.away" "$proj/op_host/reduce_sum_custom_tiling.h"
cd - >/dev/null || fail "no way back"

vendor="$P/opp/vendors/customize"
rm -rf "$vendor"
mkdir -p "$vendor/op_impl/ai_core/tbe/op_tiling/lib/linux/$(uname -m)" \
  "$vendor/op_impl/ai_core/tbe/kernel/ascend910b/reduce_sum_custom" "$vendor/op_api/lib" "$vendor/op_api/include"
cp autogen/libascend_all_ops.so "$vendor/op_impl/ai_core/tbe/op_tiling/lib/linux/$(uname -m)/libcust_opmaster_rt2.0.so"
cp "$bindir"/bin/reduce_sum_custom/* "$vendor/op_impl/ai_core/tbe/kernel/ascend910b/reduce_sum_custom/"
cp autogen/libcust_opapi.so "$vendor/op_api/lib/"
cp autogen/aclnn_reduce_sum_custom.h "$vendor/op_api/include/"
cp -r "$ROOT/tests/ascendc/framework_launch/AclNNInvocation" app
export PATH="/usr/bin:$PATH"
san=""
ldd "$(find "$P" -name libasccore.so | head -1)" | grep -q libasan && san="-fsanitize=address,undefined"
export CXXFLAGS="$san" LDFLAGS="$san"
command -v /usr/bin/python3 >/dev/null && /usr/bin/python3 -c "import numpy" 2>/dev/null ||
  skip "numpy (python3-numpy) is needed for the application's golden data"
run env ASCEND_INSTALL_PATH="$P" bash app/run.sh
expect_exit 0
[ "$(grep -c "test pass" "$STDOUT")" = 2 ] || fail "the CANN-laid-out package did not give numpy's sums"

# Packages of several projects share a vendor folder, each built for its own compute unit: the
# operator's kernels are found in the unit that has them (here only ascend310p), though another
# project left an operator under ascend910b.
mkdir -p "$vendor/op_impl/ai_core/tbe/kernel/ascend310p"
mv "$vendor/op_impl/ai_core/tbe/kernel/ascend910b/reduce_sum_custom" \
  "$vendor/op_impl/ai_core/tbe/kernel/ascend310p/"
mkdir -p "$vendor/op_impl/ai_core/tbe/kernel/ascend910b/other_custom"
run env ASCEND_INSTALL_PATH="$P" bash app/run.sh
expect_exit 0
[ "$(grep -c "test pass" "$STDOUT")" = 2 ] || fail "the kernel under ascend310p was not found"
