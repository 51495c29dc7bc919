// main.cpp ROWS COLS fp16|fp32: y = softmax(x) over each row through aclnnRowSoftmaxCustom,
// x read from input/input_x.bin, y written to output/output_y.bin (raw elements of the dtype).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclnn_row_softmax_custom.h"

#define CHECK_RET(cond, what)                   \
  do {                                          \
    if (!(cond)) {                              \
      std::printf("[ERROR] %s failed\n", what); \
      return 1;                                 \
    }                                           \
  } while (0)

int main(int argc, char** argv) {
  if (argc != 4) {
    std::printf("usage: %s ROWS COLS fp16|fp32\n", argv[0]);
    return 1;
  }
  const int64_t rows = std::atoll(argv[1]), cols = std::atoll(argv[2]);
  const bool half = std::strcmp(argv[3], "fp16") == 0;
  const size_t bytes = static_cast<size_t>(rows * cols) * (half ? 2 : 4);
  std::vector<char> x(bytes), y(bytes);
  std::ifstream in("input/input_x.bin", std::ios::binary);
  CHECK_RET(in.read(x.data(), bytes) && in.gcount() == static_cast<std::streamsize>(bytes),
            "reading input/input_x.bin");

  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtStream stream = nullptr;
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
  void* xDev = nullptr;
  void* yDev = nullptr;
  CHECK_RET(aclrtMalloc(&xDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc x");
  CHECK_RET(aclrtMalloc(&yDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc y");
  CHECK_RET(aclrtMemcpy(xDev, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
            "aclrtMemcpy x");
  const int64_t shape[] = {rows, cols};
  const int64_t strides[] = {cols, 1};
  const aclDataType type = half ? ACL_FLOAT16 : ACL_FLOAT;
  aclTensor* xt = aclCreateTensor(shape, 2, type, strides, 0, ACL_FORMAT_ND, shape, 2, xDev);
  aclTensor* yt = aclCreateTensor(shape, 2, type, strides, 0, ACL_FORMAT_ND, shape, 2, yDev);
  CHECK_RET(xt != nullptr && yt != nullptr, "aclCreateTensor");
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus ret = aclnnRowSoftmaxCustomGetWorkspaceSize(xt, yt, &workspaceSize, &executor);
  if (ret != ACL_SUCCESS) {
    std::printf("[ERROR] aclnnRowSoftmaxCustomGetWorkspaceSize failed: %d, %s\n", ret,
                aclGetRecentErrMsg());
    return 1;
  }
  void* workspace = nullptr;
  if (workspaceSize > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "aclrtMalloc workspace");
  }
  CHECK_RET(aclnnRowSoftmaxCustom(workspace, workspaceSize, executor, stream) == ACL_SUCCESS,
            "aclnnRowSoftmaxCustom");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  CHECK_RET(aclrtMemcpy(y.data(), bytes, yDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
            "aclrtMemcpy y");
  std::ofstream out("output/output_y.bin", std::ios::binary);
  out.write(y.data(), static_cast<std::streamsize>(bytes));
  std::printf("[INFO] %lld x %lld %s done\n", static_cast<long long>(rows),
              static_cast<long long>(cols), argv[3]);
  aclDestroyTensor(xt);
  aclDestroyTensor(yt);
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
