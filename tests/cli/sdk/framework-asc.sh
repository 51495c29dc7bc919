# An operator project in CANN 9's shape (tests/ascendc/framework_asc: find_package(ASC) and the
# npu_op_* functions, a preset naming the vendor, build.sh building `binary` then `package`)
# builds unchanged against the installed prefix; its package installs the vendor, and an aclnn
# application matches numpy on float32 and float16 rows (the SoftMax high-level API with its
# host tiling, rows split over several blocks). A package TYPE asc-tools does not make stops
# the configure step, naming it. ASC_CHECK_UNWRITTEN=1 turns an output the kernel left in part
# into an error of the launch.
command -v /usr/bin/python3 >/dev/null && /usr/bin/python3 -c "import numpy" 2>/dev/null ||
  skip "numpy (python3-numpy) is needed for the golden data"
run cmake --install "$BIN/.." --prefix "$PWD/prefix"
expect_exit 0
expect_file prefix/lib/cmake/ASC/asc-config.cmake
cp -r "$ROOT/tests/ascendc/framework_asc" proj
export PATH="/usr/bin:$PATH"
san=""
ldd "$(find prefix -name libasccore.so | head -1)" | grep -q libasan && san="-fsanitize=address,undefined"
export CXXFLAGS="$san" LDFLAGS="$san"
source prefix/set_env.sh
export PATH="/usr/bin:$PATH"

run bash -c "cd proj/RowSoftmaxCustom && bash build.sh"
expect_exit 0
expect_file proj/RowSoftmaxCustom/build_out/autogen/aclnn_row_softmax_custom.h
expect_file proj/RowSoftmaxCustom/build_out/vendors/rowsoftmax/op_api/lib/libcust_opapi.so
run bash -c "proj/RowSoftmaxCustom/build_out/custom_opp_*.run"
expect_exit 0
expect_stdout_contains "SUCCESS: vendor rowsoftmax installed in $PWD/prefix/opp/vendors/rowsoftmax"
run bash proj/AclNN/run.sh
expect_exit 0
[ "$(grep -c "test pass" "$STDOUT")" = 2 ] || fail "float32 and float16 should both pass"
expect_stdout_contains "37 x 64 fp32 done"
expect_stdout_contains "20 x 128 fp16 done"

# A kernel that skips block 0's first row: without a check the output holds whatever the
# memory did (the application's own comparison fails); with ASC_CHECK_UNWRITTEN=1 the launch
# fails, naming the kernel and the unwritten range.
sed -i 's/for (uint32_t r = 0; r < count_; ++r)/for (uint32_t r = GetBlockIdx() == 0 ? 1 : 0; r < count_; ++r)/' \
  proj/RowSoftmaxCustom/op_kernel/row_softmax_custom.cpp
run bash -c "cd proj/RowSoftmaxCustom && bash build.sh && ./build_out/custom_opp_*.run"
expect_exit 0
run bash proj/AclNN/run.sh
expect_exit_nonzero
expect_stdout_contains "[ERROR] result error"
run env ASC_CHECK_UNWRITTEN=1 bash proj/AclNN/run.sh
expect_exit_nonzero
expect_stderr_contains "aclnnRowSoftmaxCustom: kernel 'row_softmax_custom' left 64 of the 2368 elements of output 0 unwritten (the first at 0, the last at 63)"

sed -i 's/TYPE RUN/TYPE SHARED/' proj/RowSoftmaxCustom/CMakeLists.txt
run bash -c "cd proj/RowSoftmaxCustom && bash build.sh"
expect_exit_nonzero
expect_stderr_contains "asc-tools makes RUN packages"
