# A KernelLaunch project in the shape of CANN 7's Matmul samples (tests/ascendc/matmul_cann7: the
# kernel on lib/matrix/matmul/matmul.h's MatmulImpl, returning on the vector cores at
# `g_coreType == AIV`, launched with ICPU_RUN_KF and no SetKernelMode; a tiling program that
# includes "tiling_api.h" from runtime/include/tiling and links tiling_api, platform, c_sec, graph
# and register by name) builds and runs unchanged with `bash run.sh cpu` against the installed
# prefix, its blocks running as cube cores, and matches numpy.
build="$BIN/.."
run cmake --install "$build" --prefix "$PWD/prefix"
expect_exit 0
expect_file prefix/include/ascendc/lib/matrix/matmul/matmul.h
expect_file prefix/runtime/include/tiling/tiling_api.h
expect_file prefix/lib64/libc_sec.so
cp -r "$ROOT/tests/ascendc/matmul_cann7" proj
export PATH="/usr/bin:$PATH"
san=""
ldd "$(find prefix -name libasccore.so | head -1)" | grep -q libasan && san="-fsanitize=address,undefined"
export CXXFLAGS="$san" LDFLAGS="$san"
run env ASCEND_HOME_DIR="$PWD/prefix" bash proj/run.sh cpu
expect_exit 0
expect_stdout_contains "tiling: 2 core(s)"
expect_stdout_contains "test pass"
