# An Ascend C KernelLaunch project of the sort family (tests/ascendc/topk_launch: per block,
# Concat, Sort<float, true> over runs of 32 and Extract give the k largest values with their
# indices) builds and runs unchanged with `bash run.sh -r cpu -v <soc>` against the installed
# prefix and equals numpy's stable descending order exactly, ties included.
build="$BIN/.."
run cmake --install "$build" --prefix "$PWD/prefix"
expect_exit 0
cp -r "$ROOT/tests/ascendc/topk_launch" proj
export PATH="/usr/bin:$PATH"
san=""
ldd "$(find prefix -name libasccore.so | head -1)" | grep -q libasan && san="-fsanitize=address,undefined"
export CXXFLAGS="$san" LDFLAGS="$san"
run env ASCEND_INSTALL_PATH="$PWD/prefix" bash proj/run.sh -r cpu -v Ascend910B1
expect_exit 0
expect_stdout_contains "test pass"
