// main.cpp: y = 0.5 * sum(x) through the custom operator's aclnn API: AscendCL set up, device
// memory for x and y, the two-phase call (GetWorkspaceSize, then the launch on a stream), the
// result copied back to output/output_y.bin. argv[1]: the length of x (input/input_x.bin).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "aclnn_reduce_sum_custom.h"

#define CHECK_RET(cond, what)                   \
  do {                                          \
    if (!(cond)) {                              \
      std::printf("[ERROR] %s failed\n", what); \
      return 1;                                 \
    }                                           \
  } while (0)

static bool ReadFile(const char* path, void* data, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  return in.read(static_cast<char*>(data), bytes) &&
         in.gcount() == static_cast<std::streamsize>(bytes);
}

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 100000;
  const double scale = 0.5;
  std::vector<float> x(n), y(1);
  CHECK_RET(n > 0 && ReadFile("input/input_x.bin", x.data(), n * sizeof(float)),
            "reading input/input_x.bin");

  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtStream stream = nullptr;
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  void* xDev = nullptr;
  void* yDev = nullptr;
  CHECK_RET(aclrtMalloc(&xDev, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
            "aclrtMalloc x");
  CHECK_RET(aclrtMalloc(&yDev, sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
            "aclrtMalloc y");
  CHECK_RET(aclrtMemcpy(xDev, n * sizeof(float), x.data(), n * sizeof(float),
                        ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
            "aclrtMemcpy x");

  const int64_t xShape[] = {n};
  const int64_t yShape[] = {1};
  const int64_t stride[] = {1};
  aclTensor* xTensor =
      aclCreateTensor(xShape, 1, ACL_FLOAT, stride, 0, ACL_FORMAT_ND, xShape, 1, xDev);
  aclTensor* yTensor =
      aclCreateTensor(yShape, 1, ACL_FLOAT, stride, 0, ACL_FORMAT_ND, yShape, 1, yDev);
  CHECK_RET(xTensor != nullptr && yTensor != nullptr, "aclCreateTensor");

  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus ret =
      aclnnReduceSumCustomGetWorkspaceSize(xTensor, scale, yTensor, &workspaceSize, &executor);
  if (ret != ACL_SUCCESS) {
    std::printf("[ERROR] aclnnReduceSumCustomGetWorkspaceSize failed: %d, %s\n", ret,
                aclGetRecentErrMsg());
    return 1;
  }
  void* workspace = nullptr;
  if (workspaceSize > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "aclrtMalloc workspace");
  }
  CHECK_RET(aclnnReduceSumCustom(workspace, workspaceSize, executor, stream) == ACL_SUCCESS,
            "aclnnReduceSumCustom");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  CHECK_RET(aclrtMemcpy(y.data(), sizeof(float), yDev, sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST) ==
                ACL_SUCCESS,
            "aclrtMemcpy y");
  std::printf("[INFO] n = %lld, workspace %llu bytes, y = %f\n", static_cast<long long>(n),
              static_cast<unsigned long long>(workspaceSize), y[0]);
  std::ofstream out("output/output_y.bin", std::ios::binary);
  out.write(reinterpret_cast<const char*>(y.data()), sizeof(float));

  aclDestroyTensor(xTensor);
  aclDestroyTensor(yTensor);
  if (workspace != nullptr) {
    aclrtFree(workspace);
  }
  aclrtFree(xDev);
  aclrtFree(yDev);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return out ? 0 : 1;
}
