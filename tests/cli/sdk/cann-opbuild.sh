# The first step of CANN's own operator-project build (its cmake/func.cmake `opbuild`): op_host
# compiled as C++11 with the old C++ ABI against <prefix>/include, linked with -lexe_graph
# -lregister -ltiling_api from <prefix>/lib64, then <prefix>/toolkit/tools/opbuild/op_build
# writes the aclnn sources, which compile the same way (cmake/intf.cmake's flags) into
# libcust_opapi.so; and CANN's ops-info files (aic-<soc>-ops-info.ini) and op_proto.h/.cc. An
# op_host with a DYNAMIC parameter is refused, naming it.
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
g++ "${flags[@]}" -c autogen/op_proto.cc -I autogen -o autogen/op_proto.o ||
  fail "op_proto.cc did not compile with CANN's project flags"
g++ "${flags[@]}" -fvisibility=hidden -shared autogen/aclnn_reduce_sum_custom.cpp -I "$P/include" \
  -I autogen -L "$P/lib64" -lascendcl -lnnopbase -o autogen/libcust_opapi.so ||
  fail "the aclnn source did not build with CANN's project flags"
nm -D --defined-only autogen/libcust_opapi.so | grep -q " aclnnReduceSumCustom$" ||
  fail "libcust_opapi.so does not export aclnnReduceSumCustom"

cat > dyn.cpp <<'CPP'
#include "register/op_def_registry.h"
namespace ops {
class AddNCustom : public OpDef {
public:
    explicit AddNCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    }
};
OP_ADD(AddNCustom);
}
CPP
g++ "${flags[@]}" -shared dyn.cpp -I "$P/include" -L "$P/lib64" -lregister -o libdyn.so ||
  fail "the DYNAMIC op_host did not build"
run "$P/toolkit/tools/opbuild/op_build" libdyn.so dynout
expect_exit 1
expect_stderr_contains "custom operator AddNCustom: 'x' is a DYNAMIC parameter"
expect_no_file dynout/aclnn_add_n_custom.h
