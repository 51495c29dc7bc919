# env.sh: the sanitizer runtime options for `scripts/test.sh --sanitize` (sourced). Every
# report stops the test that triggers it. The suppression files name third-party libraries
# only (OpenMP, oneDNN, protobuf); never a frame of asc-tools.
san_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# allocator_may_return_null: the runtime's E3003 path (an arena too large to allocate) must see
# a null from malloc, as in a normal build, instead of ASan's allocation-size-too-big report.
export ASAN_OPTIONS="allocator_may_return_null=1:detect_leaks=1:abort_on_error=0:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$san_dir/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="suppressions=$san_dir/ubsan.supp:print_stacktrace=1:halt_on_error=1"
