# The Ascend C CPU layer from the installed SDK: `cmake --install` puts kernel_operator.h,
# tikicpulib.h and register/tilingdata_base.h under include/ascendc and exports
# asccore::ascendc; a CANN-style kernel and its ICPU_RUN_KF host program (tests/ascendc) build
# against it with find_package(asccore), and with pkg-config plus the include folder, and run.
build="$BIN/.."
run cmake --install "$build" --prefix "$PWD/prefix"
expect_exit 0
for f in kernel_operator.h tikicpulib.h register/tilingdata_base.h; do
  expect_file "prefix/include/ascendc/$f"
done
expect_file prefix/include/asc/ascendc/launch.h
libdir=$(dirname "$(find prefix -name 'libasccore.so' | head -1)")
[ -n "$libdir" ] || fail "no libasccore.so under the prefix"

mkdir -p op
cp "$ROOT/tests/ascendc/add_custom.cpp" "$ROOT/tests/ascendc/add_custom_tiling.h" \
   "$ROOT/tests/ascendc/main.cpp" op/
cat > op/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.16)
project(add_custom_cpu CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(asccore REQUIRED)
add_executable(add_custom_cpu add_custom.cpp main.cpp)
target_compile_definitions(add_custom_cpu PRIVATE ASCENDC_CPU_DEBUG)
target_link_libraries(add_custom_cpu PRIVATE asccore::ascendc)
CM
run cmake -S op -B op/build -DCMAKE_PREFIX_PATH="$PWD/prefix" -DCMAKE_BUILD_TYPE=Release
expect_exit 0
run cmake --build op/build
expect_exit 0
run op/build/add_custom_cpu
expect_exit 0
expect_stdout_contains "add_custom: 16384 elements on 8 blocks match"

# pkg-config alone, the kernel compiled without -DASCENDC_CPU_DEBUG (the headers define it).
run env PKG_CONFIG_PATH="$PWD/$libdir/pkgconfig" pkg-config --cflags --libs asccore
expect_exit 0
flags=$(cat "$STDOUT")
run env PKG_CONFIG_PATH="$PWD/$libdir/pkgconfig" pkg-config --variable=ascendc_includedir asccore
expect_exit 0
acdir=$(cat "$STDOUT")
expect_file "$acdir/kernel_operator.h"
san=()
ldd "$libdir/libasccore.so" | grep -q libasan && san=(-fsanitize=address,undefined)
run c++ -std=c++17 -c op/add_custom.cpp -o add_custom.o "${san[@]}" -I"$acdir" $flags
expect_exit 0
run c++ -std=c++17 -DASCENDC_CPU_DEBUG op/main.cpp add_custom.o -o add_custom_pc "${san[@]}" \
  -Iop -I"$acdir" $flags -Wl,-rpath,"$PWD/$libdir"
expect_exit 0
run ./add_custom_pc
expect_exit 0
expect_stdout_contains "match"
