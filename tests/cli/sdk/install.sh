# libasccore as an installable SDK: `cmake --install` to a fresh prefix gives the headers, the
# library, asccoreConfig.cmake and asccore.pc. A custom-operator plugin builds against it with
# find_package(asccore), and a program builds with pkg-config alone; the plugin then converts and
# runs a model through the installed atc and msame.
build="$BIN/.."
run cmake --install "$build" --prefix "$PWD/prefix"
expect_exit 0
for f in include/asc/ops/plugin.h include/asc/ops/op_def.h include/asc/compiler/compile.h; do
  expect_file "prefix/$f"
done
libdir=$(dirname "$(find prefix -name 'libasccore.so' | head -1)")
[ -n "$libdir" ] || fail "no libasccore.so under the prefix"
expect_file "$libdir/cmake/asccore/asccoreConfig.cmake"
expect_file "$libdir/pkgconfig/asccore.pc"

# A plugin project as a user writes it: find_package(asccore), one shared library.
mkdir -p plugin
cp "$ROOT/tests/testkit/test_op_plugin.cpp" plugin/my_ops.cpp
cat > plugin/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.16)
project(my_ops CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(asccore REQUIRED)
add_library(my_ops SHARED my_ops.cpp)
target_compile_definitions(my_ops PRIVATE ASC_TEST_PLUGIN_VARIANT=0)
target_link_libraries(my_ops PRIVATE asccore::asccore)
set_target_properties(my_ops PROPERTIES CXX_VISIBILITY_PRESET hidden)
message(STATUS "plugin ABI ${asccore_PLUGIN_ABI}")
CM
run cmake -S plugin -B plugin/build -DCMAKE_PREFIX_PATH="$PWD/prefix" -DCMAKE_BUILD_TYPE=Release
expect_exit 0
expect_stdout_contains "plugin ABI 4"
run cmake --build plugin/build
expect_exit 0
expect_file plugin/build/libmy_ops.so

# pkg-config alone: a program that lists the operators the installed library knows.
cat > list.cpp <<'CPP'
#include <cstdio>
#include "asc/ops/registry.h"
int main() {
  for (const auto* d : asc::ops::allOps()) std::printf("%s\n", d->name().c_str());
}
CPP
run env PKG_CONFIG_PATH="$PWD/$libdir/pkgconfig" pkg-config --cflags --libs asccore
expect_exit 0
flags=$(cat "$STDOUT")
# A sanitizer build's library needs its runtime first in the program that links it.
san=()
ldd "$libdir/libasccore.so" | grep -q libasan && san=(-fsanitize=address,undefined)
run c++ list.cpp -o list "${san[@]}" $flags -Wl,-rpath,"$PWD/$libdir"
expect_exit 0
run ./list
expect_exit 0
expect_stdout_line "Conv"

# The plugin built against the SDK converts and runs a model with the installed tools.
mkdir -p ops && cp plugin/build/libmy_ops.so ops/
proto=/usr/include/onnx/onnx.proto
cat > m.textproto <<'TXT'
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "m"
  node { op_type: "AscSquarePlus" name: "sq" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
}
TXT
protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < m.textproto > m.onnx || fail "protoc"
run prefix/bin/atc --model=m.onnx --framework=5 --output=m --soc_version=Ascend310 --precision_mode=force_fp32 --op_plugin_path=ops
expect_exit 0
run env ASCEND_CUSTOM_OPP_PATH="$PWD/ops" prefix/bin/msame --model m.om --output out --outfmt TXT
expect_exit 0
# zeros in: x*x + 1 = 1 everywhere
tr -s ' \n' '\n\n' < "$(ls out/*/m_output_0.txt)" | grep -v '^$' | sort -u > values.txt
[ "$(cat values.txt)" = "1" ] || fail "custom op through the installed tools gave $(head -3 values.txt)"
