#!/bin/bash
# build.sh: configures with the preset, builds the kernels (binary) and the package.
if [ -z "$ASCEND_HOME_PATH" ]; then
    echo "please set env: source <toolkit>/set_env.sh"
    exit 1
fi
mkdir -p build_out
rm -rf build_out/*
cmake -S . -B build_out --preset=default || exit 1
cmake --build build_out --target binary -j"$(nproc)" || exit 1
cmake --build build_out --target package -j"$(nproc)" || exit 1
