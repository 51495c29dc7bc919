// main.cpp: c = a * b through the custom operator's aclnn API, a [96, 64] and b [64, 80] in
// float16 (input/input_a.bin, input_b.bin), c [96, 80] in float to output/output_c.bin.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclnn_matmul_custom.h"

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

static aclTensor* MakeTensor(const std::vector<int64_t>& shape, aclDataType type, void* data) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) {
    strides[i] = shape[i + 1] * strides[i + 1];
  }
  return aclCreateTensor(shape.data(), shape.size(), type, strides.data(), 0, ACL_FORMAT_ND,
                         shape.data(), shape.size(), data);
}

int main() {
  const int64_t M = 96, K = 64, N = 80;
  const size_t aBytes = M * K * sizeof(uint16_t), bBytes = K * N * sizeof(uint16_t),
               cBytes = M * N * sizeof(float);
  std::vector<uint16_t> a(M * K), b(K * N);
  std::vector<float> c(M * N);
  CHECK_RET(ReadFile("input/input_a.bin", a.data(), aBytes) &&
                ReadFile("input/input_b.bin", b.data(), bBytes),
            "reading the inputs");

  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtStream stream = nullptr;
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
  void *aDev = nullptr, *bDev = nullptr, *cDev = nullptr;
  CHECK_RET(aclrtMalloc(&aDev, aBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc a");
  CHECK_RET(aclrtMalloc(&bDev, bBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc b");
  CHECK_RET(aclrtMalloc(&cDev, cBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc c");
  CHECK_RET(aclrtMemcpy(aDev, aBytes, a.data(), aBytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
            "copy a");
  CHECK_RET(aclrtMemcpy(bDev, bBytes, b.data(), bBytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
            "copy b");
  aclTensor* aT = MakeTensor({M, K}, ACL_FLOAT16, aDev);
  aclTensor* bT = MakeTensor({K, N}, ACL_FLOAT16, bDev);
  aclTensor* cT = MakeTensor({M, N}, ACL_FLOAT, cDev);
  CHECK_RET(aT != nullptr && bT != nullptr && cT != nullptr, "aclCreateTensor");

  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus ret = aclnnMatmulCustomGetWorkspaceSize(aT, bT, cT, &workspaceSize, &executor);
  if (ret != ACL_SUCCESS) {
    std::printf("[ERROR] aclnnMatmulCustomGetWorkspaceSize failed: %d, %s\n", ret,
                aclGetRecentErrMsg());
    return 1;
  }
  void* workspace = nullptr;
  if (workspaceSize > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnMatmulCustom(workspace, workspaceSize, executor, stream) == ACL_SUCCESS,
            "aclnnMatmulCustom");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  CHECK_RET(aclrtMemcpy(c.data(), cBytes, cDev, cBytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
            "copy c");
  std::ofstream out("output/output_c.bin", std::ios::binary);
  out.write(reinterpret_cast<const char*>(c.data()), cBytes);

  aclDestroyTensor(aT);
  aclDestroyTensor(bT);
  aclDestroyTensor(cT);
  if (workspace != nullptr) {
    aclrtFree(workspace);
  }
  aclrtFree(aDev);
  aclrtFree(bDev);
  aclrtFree(cDev);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return out ? 0 : 1;
}
