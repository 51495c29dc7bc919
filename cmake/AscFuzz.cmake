# AscFuzz.cmake: the fuzz build (-DASC_FUZZ=ON, clang only). Every target of the project is
# compiled with AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage
# instrumentation (fuzzer-no-link); the fuzz targets in tests/fuzz add libFuzzer's main.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "ASC_FUZZ=ON needs clang (libFuzzer): configure with "
                      "-DCMAKE_CXX_COMPILER=clang++ (scripts/fuzz.sh does)")
endif()
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                    -fno-omit-frame-pointer -g)
add_link_options(-fsanitize=address,undefined)
