# An Ascend C FrameworkLaunch project in the shape of the samples (tests/ascendc/framework_launch:
# an msopgen JSON, op_host with TilingFunc and OpDef, op_kernel, install.sh running msopgen,
# build.sh and the package, AclNNInvocation calling the operator's aclnn API) builds, installs
# and runs unchanged against the installed prefix, and matches numpy, on one tile per block
# (tiling key 1) and several (key 2), with a workspace and SyncAll. The package installs into
# $ASCEND_OPP_PATH or --install-path. Wrong calls of the aclnn API fail, saying why.
command -v /usr/bin/python3 >/dev/null && /usr/bin/python3 -c "import numpy" 2>/dev/null ||
  skip "numpy (python3-numpy) is needed for the golden data"
run cmake --install "$BIN/.." --prefix "$PWD/prefix"
expect_exit 0
expect_file prefix/bin/msopgen
expect_file prefix/tools/opbuild/op_build
expect_file prefix/runtime/include/aclnn/acl_meta.h
expect_file prefix/x86_64-linux/devlib/libnnopbase.so
cp -r "$ROOT/tests/ascendc/framework_launch" proj
export PATH="/usr/bin:$PATH"
san=""
ldd "$(find prefix -name libasccore.so | head -1)" | grep -q libasan && san="-fsanitize=address,undefined"
export CXXFLAGS="$san" LDFLAGS="$san"

run env ASCEND_INSTALL_PATH="$PWD/prefix" bash proj/install.sh -v Ascend910B1
expect_exit 0
expect_stdout_contains "SUCCESS: vendor customize installed in $PWD/prefix/opp/vendors/customize"
expect_file prefix/opp/vendors/customize/op_api/lib/libcust_opapi.so
expect_file prefix/opp/vendors/customize/op_api/include/aclnn_reduce_sum_custom.h
grep -qx "load_priority=customize" prefix/opp/vendors/config.ini || fail "config.ini does not list the vendor"
grep -q "double scale" prefix/opp/vendors/customize/op_api/include/aclnn_reduce_sum_custom.h ||
  fail "the aclnn header does not pass the float attribute as a double"

run env ASCEND_INSTALL_PATH="$PWD/prefix" bash proj/AclNNInvocation/run.sh
expect_exit 0
[ "$(grep -c "test pass" "$STDOUT")" = 2 ] || fail "both lengths should pass"
expect_stdout_contains "n = 1000, workspace"
expect_stdout_contains "n = 100000, workspace"

# The operator library built with the old C++ ABI (-D_GLIBCXX_USE_CXX11_ABI=0, as CANN builds
# op_host code), called from an application built with the default one: the host API's objects
# cross the boundary unchanged.
run env ASCEND_INSTALL_PATH="$PWD/prefix" CXXFLAGS="$san -D_GLIBCXX_USE_CXX11_ABI=0" \
  bash proj/install.sh -v Ascend910B1
expect_exit 0
grep -q -- "-D_GLIBCXX_USE_CXX11_ABI=0" proj/CustomOp/build_out/CMakeFiles/customize_ops.dir/flags.make ||
  fail "the operator library was not built with the old ABI"
run env ASCEND_INSTALL_PATH="$PWD/prefix" bash proj/AclNNInvocation/run.sh
expect_exit 0
[ "$(grep -c "test pass" "$STDOUT")" = 2 ] || fail "both lengths should pass with the old-ABI library"

# The same package under --install-path: its set_env.bash points at it.
run bash proj/CustomOp/build_out/custom_opp_*.run --install-path="$PWD/other"
expect_exit 0
expect_file other/vendors/customize/op_api/lib/libcust_opapi.so
expect_file other/vendors/customize/bin/set_env.bash
grep -q "LD_LIBRARY_PATH=$PWD/other/vendors/customize/op_api/lib" other/vendors/customize/bin/set_env.bash ||
  fail "set_env.bash does not put the package's op_api/lib on LD_LIBRARY_PATH"
# A damaged package is refused before anything is installed.
head -c -100 proj/CustomOp/build_out/custom_opp_*.run > broken.run
run bash broken.run --install-path="$PWD/third"
expect_exit_nonzero
expect_stderr_contains "[ops_custom] [ERROR] the package is damaged"
expect_no_file third/vendors/customize

# Calls the aclnn API gets wrong: each fails with a message, and the process goes on.
cat > bad.cpp <<'CPP'
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include "acl/acl.h"
#include "aclnn_reduce_sum_custom.h"
static void report(const char* what, int ret) {
  std::printf("%s: %d %s\n", what, ret, ret ? aclGetRecentErrMsg() : "");
}
int main() {
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream stream = nullptr;
  aclrtCreateStream(&stream);
  int64_t n = 64, one = 1, stride = 1, stride2 = 2;
  void *x = nullptr, *y = nullptr, *ws = nullptr;
  aclrtMalloc(&x, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&y, 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemset(x, n * 4, 0, n * 4);
  static float host[64];
  uint64_t size = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* yt = aclCreateTensor(&one, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &one, 1, y);
  aclTensor* hostX = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, host);
  report("host", aclnnReduceSumCustomGetWorkspaceSize(hostX, 1.0, yt, &size, &ex));
  aclTensor* halfX = aclCreateTensor(&n, 1, ACL_FLOAT16, &stride, 0, ACL_FORMAT_ND, &n, 1, x);
  report("fp16", aclnnReduceSumCustomGetWorkspaceSize(halfX, 1.0, yt, &size, &ex));
  int64_t half_n = n / 2;
  aclTensor* strided = aclCreateTensor(&half_n, 1, ACL_FLOAT, &stride2, 0, ACL_FORMAT_ND, &n, 1, x);
  report("strided", aclnnReduceSumCustomGetWorkspaceSize(strided, 1.0, yt, &size, &ex));
  aclTensor* xt = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, x);
  report("null output", aclnnReduceSumCustomGetWorkspaceSize(xt, 1.0, nullptr, &size, &ex));
  report("good", aclnnReduceSumCustomGetWorkspaceSize(xt, 1.0, yt, &size, &ex));
  aclrtMalloc(&ws, 16, ACL_MEM_MALLOC_HUGE_FIRST);
  report("small workspace", aclnnReduceSumCustom(ws, 16, ex, stream));
  report("synchronize", aclrtSynchronizeStream(stream));
  report("no executor", aclnnReduceSumCustom(ws, 16, nullptr, stream));
  // The executor ran single-use: as CANN's runtime for custom operators keeps it cached, a
  // benchmark loop may launch it again (here with a workspace that fits).
  void* ws64 = nullptr;
  aclrtMalloc(&ws64, 64, ACL_MEM_MALLOC_HUGE_FIRST);
  report("reused", aclnnReduceSumCustom(ws64, 64, ex, stream));
  report("synchronize reused", aclrtSynchronizeStream(stream));
  // 64 executors that ran after it: it is freed then, and a run of it is refused by name.
  for (int i = 0; i < 64; ++i) {
    aclOpExecutor* other = nullptr;
    if (aclnnReduceSumCustomGetWorkspaceSize(xt, 1.0, yt, &size, &other) != 0 ||
        aclnnReduceSumCustom(ws64, size, other, stream) != 0)
      report("other", 1);
  }
  report("evicted", aclnnReduceSumCustom(ws64, 64, ex, stream));
  // A spent executor still kept may be destroyed (once), or made repeatable.
  aclOpExecutor* spent = nullptr;
  aclnnReduceSumCustomGetWorkspaceSize(xt, 1.0, yt, &size, &spent);
  aclnnReduceSumCustom(ws64, size, spent, stream);
  report("destroy spent", aclDestroyAclOpExecutor(spent));
  report("destroy spent again", aclDestroyAclOpExecutor(spent));
  aclOpExecutor* again = nullptr;
  aclnnReduceSumCustomGetWorkspaceSize(xt, 1.0, yt, &size, &again);
  aclnnReduceSumCustom(ws64, size, again, stream);
  report("repeatable after a run", aclSetAclOpExecutorRepeatable(again));
  report("destroy repeatable", aclDestroyAclOpExecutor(again));
  report("synchronize spent", aclrtSynchronizeStream(stream));
  // A repeatable one runs until it is destroyed.
  void* ws32 = nullptr;
  aclrtMalloc(&ws32, 32, ACL_MEM_MALLOC_HUGE_FIRST);
  aclOpExecutor* rep = nullptr;
  report("again", aclnnReduceSumCustomGetWorkspaceSize(xt, 1.0, yt, &size, &rep));
  report("repeatable", aclSetAclOpExecutorRepeatable(rep));
  report("run 1", aclnnReduceSumCustom(ws32, size, rep, stream));
  report("run 2", aclnnReduceSumCustom(ws32, size, rep, stream));
  report("synchronize 2", aclrtSynchronizeStream(stream));
  report("destroy", aclDestroyAclOpExecutor(rep));
  report("run destroyed", aclnnReduceSumCustom(ws32, size, rep, stream));
  for (aclTensor* t : {yt, hostX, halfX, strided, xt}) aclDestroyTensor(t);
  return aclFinalize() == ACL_SUCCESS ? 0 : 1;
}
CPP
inc="-Iprefix/runtime/include -Iprefix/opp/vendors/customize/op_api/include"
libs="-Lprefix/runtime/lib64 -Lprefix/opp/vendors/customize/op_api/lib -lascendcl -lcust_opapi -lnnopbase"
g++ $san -std=c++11 bad.cpp $inc $libs -o bad || fail "bad.cpp did not build"
run env LD_LIBRARY_PATH="$PWD/prefix/runtime/lib64:$PWD/prefix/opp/vendors/customize/op_api/lib" ./bad
expect_exit 0
expect_stdout_contains "host: 161002 aclnnReduceSumCustomGetWorkspaceSize: input 0"
expect_stdout_contains "is not in one block of device memory; allocate it with aclrtMalloc"
expect_stdout_contains "fp16: 161002 aclnnReduceSumCustomGetWorkspaceSize (ReduceSumCustom): no kernel of the custom operator takes the dtypes (float16,float)"
expect_stdout_contains "strided: 161002 aclnnReduceSumCustomGetWorkspaceSize: input 0 is a non-contiguous view"
expect_stdout_contains "null output: 161001"
expect_stdout_contains "good: 0"
expect_stdout_contains "small workspace: 0"
expect_stdout_contains "synchronize: 500003"
expect_stdout_contains "EZ9999 aclnnReduceSumCustom: the workspace holds 16 bytes; the operator's tiling asked for 32"
expect_stdout_contains "no executor: 161001"
expect_stdout_contains "reused: 0"
expect_stdout_contains "synchronize reused: 0"
expect_stdout_not_contains "other:"
expect_stdout_contains "evicted: 161002 aclnnReduceSumCustom: the executor at 0x"
expect_stdout_contains "is not a live one: it was destroyed, or it ran single-use and more than 64 executors ran after it"
expect_stdout_contains "destroy spent: 0"
expect_stdout_contains "destroy spent again: 161002"
expect_stdout_contains "repeatable after a run: 0"
expect_stdout_contains "destroy repeatable: 0"
expect_stdout_contains "synchronize spent: 0"
expect_stdout_contains "again: 0"
expect_stdout_contains "repeatable: 0"
expect_stdout_contains "run 1: 0"
expect_stdout_contains "run 2: 0"
expect_stdout_contains "synchronize 2: 0"
expect_stdout_contains "destroy: 0"
expect_stdout_contains "run destroyed: 161002"

# An operator updating a tensor in place (an input and an output both named y): CANN's aclnn
# takes it once, as a writable yRef at the input's place, with no output parameter.
grep -q "aclTensor \*yRef," prefix/opp/vendors/customize/op_api/include/aclnn_scale_inplace_custom.h ||
  fail "the aclnn header does not pass the in-place tensor as yRef"
grep -q "yOut\|const aclTensor \*y," prefix/opp/vendors/customize/op_api/include/aclnn_scale_inplace_custom.h &&
  fail "the aclnn header passes the in-place tensor twice"
cat > inplace.cpp <<'CPP'
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "aclnn_scale_inplace_custom.h"
int main() {
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream stream = nullptr;
  aclrtCreateStream(&stream);
  const int64_t n = 3000, stride = 1;  // three tiles, the last one short
  std::vector<float> host(n);
  for (int64_t i = 0; i < n; ++i) host[i] = float(i) - 1000.0f;
  void* y = nullptr;
  aclrtMalloc(&y, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(y, n * 4, host.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
  aclTensor* yt = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, y);
  uint64_t size = 0;
  aclOpExecutor* ex = nullptr;
  int ret = aclnnScaleInplaceCustomGetWorkspaceSize(yt, 2.5, &size, &ex);
  if (ret == 0) ret = aclnnScaleInplaceCustom(nullptr, size, ex, stream);
  if (ret == 0) ret = aclrtSynchronizeStream(stream);
  if (ret != 0) { std::printf("failed: %d %s\n", ret, aclGetRecentErrMsg()); return 1; }
  std::vector<float> out(n);
  aclrtMemcpy(out.data(), n * 4, y, n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i) wrong += out[i] != host[i] * 2.5f;
  std::printf("in place: %lld of %lld wrong\n", (long long)wrong, (long long)n);
  aclDestroyTensor(yt);
  return aclFinalize() == ACL_SUCCESS ? 0 : 1;
}
CPP
g++ $san -std=c++11 inplace.cpp $inc $libs -o inplace || fail "inplace.cpp did not build"
run env LD_LIBRARY_PATH="$PWD/prefix/runtime/lib64:$PWD/prefix/opp/vendors/customize/op_api/lib" ./inplace
expect_exit 0
expect_stdout_contains "in place: 0 of 3000 wrong"

# The installed package as a single operator (the samples' AclOfflineModel walk): atc --singleop
# finds ReduceSumCustom through $ASCEND_OPP_PATH, compiles it static and dynamic, and msame runs
# each OM against numpy (the dynamic one at a length of its range).
cat >op.json <<'JSON'
[{"op": "ReduceSumCustom",
  "input_desc": [{"name": "x", "param_type": "required", "format": "ND", "shape": [4096], "type": "float"}],
  "output_desc": [{"name": "y", "param_type": "required", "format": "ND", "shape": [1], "type": "float"}],
  "attr": [{"name": "scale", "type": "float", "value": 0.5}]},
 {"op": "ReduceSumCustom",
  "input_desc": [{"name": "x", "format": "ND", "shape": [-1], "shape_range": [[1, 65536]], "type": "float"}],
  "output_desc": [{"name": "y", "format": "ND", "shape": [1], "type": "float"}],
  "attr": [{"name": "scale", "type": "float", "value": 0.5}]}]
JSON
export ASCEND_OPP_PATH="$PWD/prefix/opp"
run atc --singleop=op.json --output=op_models --soc_version=Ascend910B1
expect_exit 0
expect_file op_models/0_ReduceSumCustom_0_2_4096_0_2_1.om
expect_file op_models/1_ReduceSumCustom_0_2_-1_0_2_1.om
for n in 4096 8192; do
  /usr/bin/python3 -c "
import numpy as np
x = np.random.default_rng($n).random($n, dtype=np.float32); x.tofile('x$n.bin')
np.save('x$n.npy', x)
np.array([np.sum(x.astype(np.float64)) * 0.5], np.float32).tofile('want$n.bin')
" || fail "numpy data"
done
run msame --model op_models/0_ReduceSumCustom_0_2_4096_0_2_1.om --input x4096.bin --output s
expect_exit 0
run msame --model op_models/1_ReduceSumCustom_0_2_-1_0_2_1.om --input x8192.npy --output d
expect_exit 0
/usr/bin/python3 -c "
import glob, numpy as np
for d, n in (('s', 4096), ('d', 8192)):
    got = np.fromfile(sorted(glob.glob(d + '/**/*.bin', recursive=True))[0], np.float32)
    want = np.fromfile(f'want{n}.bin', np.float32)
    assert got.shape == (1,) and abs(got[0] - want[0]) <= 1e-5 * abs(want[0]), (d, got, want)
" || fail "a single-operator ReduceSumCustom differs from numpy's 0.5 * sum(x)"
