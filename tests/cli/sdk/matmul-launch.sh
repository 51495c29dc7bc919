# An Ascend C KernelLaunch project using the Matmul high-level API (tests/ascendc/matmul_launch:
# the kernel declares Matmul<MatmulType<...>> and registers it with REGIST_MATMUL_OBJ; the host
# fills its TCubeTiling with matmul_tiling::MultiCoreMatmulTiling from tiling/tiling_api.h for
# the chip's cores) builds and runs unchanged with `bash run.sh -r cpu -v <soc>` against the
# installed prefix, on chips with different core counts, and matches numpy.
build="$BIN/.."
run cmake --install "$build" --prefix "$PWD/prefix"
expect_exit 0
expect_file prefix/include/ascendc/lib/matmul_intf.h
expect_file prefix/include/ascendc/tiling/tiling_api.h
cp -r "$ROOT/tests/ascendc/matmul_launch" proj
export PATH="/usr/bin:$PATH"
san=""
ldd "$(find prefix -name libasccore.so | head -1)" | grep -q libasan && san="-fsanitize=address,undefined"
export CXXFLAGS="$san" LDFLAGS="$san"
for soc in Ascend910B1 Ascend310P3; do
  run env ASCEND_INSTALL_PATH="$PWD/prefix" bash proj/run.sh -r cpu -v $soc
  expect_exit 0
  expect_stdout_contains "test pass"
done
