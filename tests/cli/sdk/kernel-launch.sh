# An Ascend C KernelLaunch project in the shape of the samples (tests/ascendc/kernel_launch:
# CMakeLists with RUN_MODE/SOC_VERSION/ASCEND_CANN_PACKAGE_PATH, cmake/cpu_lib.cmake finding
# CANN's tikicpulib package, a host main.cpp built with -D_GLIBCXX_USE_CXX11_ABI=0 -Werror that
# links tikicpulib::<soc>, ascendcl and c_sec, run.sh sourcing bin/setenv.bash) builds and runs
# unchanged with `bash run.sh -r cpu -v Ascend310P3` against the installed prefix, and matches
# numpy. The tiling key picks the kernel's branch; a key no TILING_KEY_IS branch takes stops the
# launch naming the key, with a non-zero exit, instead of leaving the output unwritten.
build="$BIN/.."
run cmake --install "$build" --prefix "$PWD/prefix"
expect_exit 0
expect_file prefix/tools/tikicpulib/lib/cmake/tikicpulib-config.cmake
expect_file prefix/bin/setenv.bash
cp -r "$ROOT/tests/ascendc/kernel_launch" proj
# Debian's python3 has numpy (the project's scripts call python3); a sanitizer build's library
# needs its runtime linked into the programs too.
export PATH="/usr/bin:$PATH"
san=""
ldd "$(find prefix -name libasccore.so | head -1)" | grep -q libasan && san="-fsanitize=address,undefined"
export CXXFLAGS="$san" LDFLAGS="$san"
for soc in Ascend310P3 Ascend910B1; do
  run env ASCEND_INSTALL_PATH="$PWD/prefix" bash proj/run.sh -r cpu -v $soc
  expect_exit 0
  expect_stdout_contains "test pass"
done
# The project's binary with key 2 (the element-wise branch) also matches; key 7 has no branch.
cd proj || fail "no project"
source ../prefix/set_env.sh
export LD_LIBRARY_PATH="$PWD/out/lib:$LD_LIBRARY_PATH"
rm -f output/output_y.bin
run ./ascendc_kernels_bbit 2
expect_exit 0
run python3 scripts/verify_result.py output/output_y.bin output/golden.bin
expect_exit 0
expect_stdout_contains "test pass"
rm -f output/output_y.bin
run ./ascendc_kernels_bbit 7
expect_exit 1
expect_stderr_contains "tiling key 7 matches no TILING_KEY_IS branch"
expect_no_file output/output_y.bin

# CANN 6's projects link the chip family in lower case (tikicpulib::ascend910, ::ascend310p,
# ::ascend910b): each resolves to a chip of the table (its UB size in the compile definitions).
cd .. || fail "no test folder"
mkdir -p cann6 && cat >cann6/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(cann6 CXX)
set(CMAKE_PREFIX_PATH ${install_path}/tools/tikicpulib/lib/cmake)
find_package(tikicpulib REQUIRED)
foreach(t ascend910 ascend310p ascend910b ascend310b)
  get_target_property(links tikicpulib::${t} INTERFACE_LINK_LIBRARIES)
  message(STATUS "${t} -> ${links}")
endforeach()
CMAKE
run cmake -S cann6 -B cann6/build -Dinstall_path="$PWD/prefix"
expect_exit 0
expect_stdout_contains "ascend910 -> tikicpulib::Ascend910"
expect_stdout_contains "ascend310p -> tikicpulib::Ascend310P1"
expect_stdout_contains "ascend910b -> tikicpulib::Ascend910B1"
expect_stdout_contains "ascend310b -> tikicpulib::Ascend310B1"
