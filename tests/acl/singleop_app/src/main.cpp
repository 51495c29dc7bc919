// A single-operator application in the shape of the samples' AclOfflineModel / AclOnlineModel:
// aclopSetModelDir on the folder atc --singleop wrote, aclopExecuteV2 on a stream, or
// aclopCompileAndExecuteV2 for an op compiled at run time. Usage:
//   op_app offline DIR OP DTYPE ROWS COLS   (inputs x0.bin x1.bin -> y.bin; DTYPE float|float16)
//   op_app online OP DTYPE ROWS COLS
//   op_app mismatch DIR                     (prints the codes of calls no model matches)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"

namespace {

std::vector<char> readFile(const char* path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

struct Tensors {
  std::vector<aclTensorDesc*> descs;
  std::vector<aclDataBuffer*> bufs;
  std::vector<void*> dev;
  ~Tensors() {
    for (auto* d : descs) aclDestroyTensorDesc(d);
    for (auto* b : bufs) aclDestroyDataBuffer(b);
    for (auto* p : dev) aclrtFree(p);
  }
  void add(aclDataType t, int64_t rows, int64_t cols, const std::vector<char>* host) {
    const int64_t dims[2] = {rows, cols};
    descs.push_back(aclCreateTensorDesc(t, 2, dims, ACL_FORMAT_ND));
    const size_t size = aclGetTensorDescSize(descs.back());
    void* p = nullptr;
    if (aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) std::exit(3);
    if (host) aclrtMemcpy(p, size, host->data(), host->size(), ACL_MEMCPY_HOST_TO_DEVICE);
    dev.push_back(p);
    bufs.push_back(aclCreateDataBuffer(p, size));
  }
};

int call(bool online, const char* op, aclDataType t, int64_t rows, int64_t cols, aclopAttr* attr,
         bool write) {
  std::vector<char> x0 = readFile("x0.bin"), x1 = readFile("x1.bin");
  Tensors in, out;
  in.add(t, rows, cols, &x0);
  in.add(t, rows, cols, &x1);
  out.add(t, rows, cols, nullptr);
  aclrtStream stream = nullptr;
  aclrtCreateStream(&stream);
  aclError e = online ? aclopCompileAndExecuteV2(op, 2, in.descs.data(), in.bufs.data(), 1,
                                                 out.descs.data(), out.bufs.data(), attr,
                                                 ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr, stream)
                      : aclopExecuteV2(op, 2, in.descs.data(), in.bufs.data(), 1, out.descs.data(),
                                       out.bufs.data(), attr, stream);
  if (e == ACL_SUCCESS) e = aclrtSynchronizeStream(stream);
  aclrtDestroyStream(stream);
  if (e != ACL_SUCCESS || !write) return e;
  const size_t size = aclGetTensorDescSize(out.descs[0]);
  std::vector<char> host(size);
  aclrtMemcpy(host.data(), size, out.dev[0], size, ACL_MEMCPY_DEVICE_TO_HOST);
  std::ofstream("y.bin", std::ios::binary).write(host.data(), std::streamsize(size));
  return ACL_SUCCESS;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const std::string mode = argv[1];
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 3;
  int rc = 0;
  if (mode == "offline" || mode == "mismatch") {
    aclError e = aclopSetModelDir(argv[2]);
    std::printf("aclopSetModelDir %d\n", e);
    if (e != ACL_SUCCESS) std::printf("%s\n", aclGetRecentErrMsg());
  }
  if ((mode == "offline" && argc == 7) || (mode == "online" && argc == 6)) {
    const int a = mode == "offline" ? 3 : 2;
    const aclDataType t = std::strcmp(argv[a + 1], "float16") == 0 ? ACL_FLOAT16 : ACL_FLOAT;
    rc = call(mode == "online", argv[a], t, std::atoll(argv[a + 2]), std::atoll(argv[a + 3]),
              nullptr, true);
    std::printf("%s %s %d\n", mode == "online" ? "aclopCompileAndExecuteV2" : "aclopExecuteV2",
                argv[a], rc);
    if (rc != ACL_SUCCESS) std::printf("%s\n", aclGetRecentErrMsg());
  } else if (mode == "mismatch") {
    // Each call no loaded model takes, with the code AscendCL gives it.
    std::printf("type %d\n", call(false, "Sub", ACL_FLOAT, 4, 8, nullptr, false));
    std::printf("dtype %d\n", call(false, "Add", ACL_FLOAT16, 4, 8, nullptr, false));
    std::printf("range %d\n", call(false, "Mul", ACL_FLOAT16, 33, 8, nullptr, false));
    std::printf("%s\n", aclGetRecentErrMsg());
    aclopAttr* attr = aclopCreateAttr();
    aclopSetAttrInt(attr, "axis", 1);
    std::printf("attr %d\n", call(false, "Add", ACL_FLOAT, 4, 8, attr, false));
    aclopDestroyAttr(attr);
  }
  aclrtResetDevice(0);
  aclFinalize();
  return rc == ACL_SUCCESS ? 0 : 1;
}
