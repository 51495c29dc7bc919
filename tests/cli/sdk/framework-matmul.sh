# A FrameworkLaunch project of the Matmul family (tests/ascendc/framework_matmul: the Matmul
# high-level API in op_kernel, its host tiling from tiling/tiling_api.h carried in the tiling data
# with TILING_DATA_FIELD_DEF_STRUCT, split over two cores) installs with its own install.sh
# against the installed prefix, and its AclNNInvocation application matches numpy.
command -v /usr/bin/python3 >/dev/null && /usr/bin/python3 -c "import numpy" 2>/dev/null ||
  skip "numpy (python3-numpy) is needed for the golden data"
run cmake --install "$BIN/.." --prefix "$PWD/prefix"
expect_exit 0
cp -r "$ROOT/tests/ascendc/framework_matmul" proj
export PATH="/usr/bin:$PATH"
san=""
ldd "$(find prefix -name libasccore.so | head -1)" | grep -q libasan && san="-fsanitize=address,undefined"
export CXXFLAGS="$san" LDFLAGS="$san"
run env ASCEND_INSTALL_PATH="$PWD/prefix" bash proj/install.sh -v Ascend910B1
expect_exit 0
expect_stdout_contains "SUCCESS: vendor customize installed"
grep -q "aclnnMatmulCustomGetWorkspaceSize" prefix/opp/vendors/customize/op_api/include/aclnn_matmul_custom.h ||
  fail "the package has no aclnn header for MatmulCustom"
run env ASCEND_INSTALL_PATH="$PWD/prefix" bash proj/AclNNInvocation/run.sh
expect_exit 0
expect_stdout_contains "test pass"
