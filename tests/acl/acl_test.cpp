// acl_test.cpp: asc-tools' AscendCL (libascendcl) through its C API, as an application calls it:
// the documented error codes and messages for bad calls, memory and stream semantics, model
// description and execution, and several threads executing one model at once. Each TEST_CASE runs
// in a process of its own (catch_discover_tests), so AscendCL's process state starts fresh.
#include <unistd.h>

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "asc/compiler/compile.h"
#include "asc/om/om_file.h"

namespace {

std::string tmpDir() {
  std::string d = std::string(ASC_TEST_TMP) + "/acl-" + std::to_string(getpid());
  std::string cmd = "mkdir -p '" + d + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return d;
}

// tiny_conv.onnx (input [1,3,8,8] -> output [1,4,8,8]) compiled to an OM, as atc would.
std::string tinyOm() {
  asc::CompileOptions o;
  o.model = std::string(ASC_TEST_DATA) + "/tiny_conv.onnx";
  o.soc_version = "Ascend310";
  auto m = asc::compile(o);
  REQUIRE(m.isOk());
  const std::string path = tmpDir() + "/tiny.om";
  REQUIRE(asc::om::writeOm(m->graph, m->info, path).isOk());
  return path;
}

struct Ready {  // aclInit + device 0
  Ready() {
    REQUIRE(aclInit(nullptr) == ACL_SUCCESS);
    REQUIRE(aclrtSetDevice(0) == ACL_SUCCESS);
  }
  ~Ready() {
    aclrtResetDevice(0);
    aclFinalize();
  }
};

bool msgHas(const char* text) { return std::strstr(aclGetRecentErrMsg(), text) != nullptr; }

struct Buffers {  // device buffers for every input and output of a model
  aclmdlDataset* in = aclmdlCreateDataset();
  aclmdlDataset* out = aclmdlCreateDataset();
  std::vector<void*> mem;
  Buffers(aclmdlDesc* d) {
    for (size_t i = 0; i < aclmdlGetNumInputs(d); ++i) add(in, aclmdlGetInputSizeByIndex(d, i));
    for (size_t i = 0; i < aclmdlGetNumOutputs(d); ++i) add(out, aclmdlGetOutputSizeByIndex(d, i));
  }
  void add(aclmdlDataset* ds, size_t size) {
    void* p = nullptr;
    REQUIRE(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    REQUIRE(aclrtMemset(p, size, 0, size) == ACL_SUCCESS);
    mem.push_back(p);
    REQUIRE(aclmdlAddDatasetBuffer(ds, aclCreateDataBuffer(p, size)) == ACL_SUCCESS);
  }
  ~Buffers() {
    for (aclmdlDataset* ds : {in, out}) {
      for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i)
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
      aclmdlDestroyDataset(ds);
    }
    for (void* p : mem) aclrtFree(p);
  }
};

}  // namespace

TEST_CASE("calls before aclInit, and init/finalize twice") {
  void* p = nullptr;
  CHECK(aclrtSetDevice(0) == ACL_ERROR_UNINITIALIZE);
  CHECK(msgHas("call aclInit first"));
  uint32_t id = 0;
  CHECK(aclmdlLoadFromFile("x.om", &id) == ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID);
  CHECK(aclFinalize() == ACL_ERROR_UNINITIALIZE);
  REQUIRE(aclInit(nullptr) == ACL_SUCCESS);
  CHECK(aclInit(nullptr) == ACL_ERROR_REPEAT_INITIALIZE);
  // No device set on this thread: no context.
  CHECK(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_RT_CONTEXT_NULL);
  CHECK(msgHas("aclrtSetDevice"));
  CHECK(aclFinalize() == ACL_SUCCESS);
  CHECK(aclFinalize() == ACL_ERROR_REPEAT_FINALIZE);
  CHECK(aclInit("/nonexistent/acl.json") == ACL_ERROR_INVALID_FILE);
}

TEST_CASE("devices, contexts and run mode") {
  REQUIRE(aclInit(nullptr) == ACL_SUCCESS);
  uint32_t n = 0;
  CHECK(aclrtGetDeviceCount(&n) == ACL_SUCCESS);
  CHECK(n == 1);
  CHECK(aclrtSetDevice(1) == ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK(msgHas("device 0"));
  CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
  int32_t dev = -1;
  CHECK(aclrtGetDevice(&dev) == ACL_SUCCESS);
  CHECK(dev == 0);
  aclrtRunMode mode;
  CHECK(aclrtGetRunMode(&mode) == ACL_SUCCESS);
  CHECK(mode == ACL_HOST);
  aclrtContext ctx = nullptr, cur = nullptr;
  CHECK(aclrtCreateContext(&ctx, 0) == ACL_SUCCESS);
  CHECK(aclrtGetCurrentContext(&cur) == ACL_SUCCESS);
  CHECK(cur == ctx);
  // Another thread has no context until it sets one.
  aclError other = ACL_SUCCESS, after = ACL_ERROR_FAILURE;
  std::thread([&] {
    void* p = nullptr;
    other = aclrtMalloc(&p, 8, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtSetCurrentContext(ctx);
    after = aclrtMalloc(&p, 8, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtFree(p);
  }).join();
  CHECK(other == ACL_ERROR_RT_CONTEXT_NULL);
  CHECK(after == ACL_SUCCESS);
  CHECK(aclrtDestroyContext(ctx) == ACL_SUCCESS);
  CHECK(aclrtDestroyContext(ctx) == ACL_ERROR_INVALID_PARAM);
  int32_t major = 0, minor = 0, patch = 0;
  CHECK(aclrtGetVersion(&major, &minor, &patch) == ACL_SUCCESS);
  CHECK(major == 1);
  CHECK(aclrtResetDevice(0) == ACL_SUCCESS);
  CHECK(aclFinalize() == ACL_SUCCESS);
}

TEST_CASE("device memory, copies and their checks") {
  Ready r;
  void* dev = nullptr;
  CHECK(aclrtMalloc(&dev, 0, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtMalloc(nullptr, 8, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  CHECK(reinterpret_cast<uintptr_t>(dev) % 64 == 0);
  std::vector<float> host(16), back(16, 0.f);
  for (int i = 0; i < 16; ++i) host[i] = i * 1.5f;
  CHECK(aclrtMemcpy(dev, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  CHECK(aclrtMemcpy(back.data(), 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  CHECK(back == host);
  // count over destMax; a host pointer where the kind says device; a device block overrun.
  CHECK(aclrtMemcpy(dev, 32, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE) ==
        ACL_ERROR_INVALID_PARAM);
  CHECK(msgHas("more than destMax"));
  CHECK(aclrtMemcpy(back.data(), 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE) ==
        ACL_ERROR_INVALID_PARAM);
  CHECK(msgHas("not device memory"));
  CHECK(aclrtMemcpy(back.data(), 64, static_cast<char*>(dev) + 8, 64, ACL_MEMCPY_DEVICE_TO_HOST) ==
        ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtMemcpy(dev, 64, host.data(), 64, static_cast<aclrtMemcpyKind>(9)) ==
        ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtMemset(dev, 64, 0x7f, 65) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtMemset(dev, 64, 0, 64) == ACL_SUCCESS);
  // Frees: twice, host memory to aclrtFree, device memory to aclrtFreeHost.
  void* host_block = nullptr;
  REQUIRE(aclrtMallocHost(&host_block, 32) == ACL_SUCCESS);
  CHECK(aclrtFree(host_block) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(aclrtFreeHost(dev) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(aclrtFreeHost(host_block) == ACL_SUCCESS);
  CHECK(aclrtFree(dev) == ACL_SUCCESS);
  CHECK(aclrtFree(dev) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(msgHas("freed already"));
  CHECK(aclrtFree(nullptr) == ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("streams run their tasks in order and events time them") {
  Ready r;
  aclrtStream s = nullptr;
  REQUIRE(aclrtCreateStream(&s) == ACL_SUCCESS);
  void* dev = nullptr;
  REQUIRE(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  std::vector<char> a(4096, 'a'), b(4096, 'b'), back(4096, 0);
  aclrtEvent start = nullptr, end = nullptr;
  REQUIRE(aclrtCreateEvent(&start) == ACL_SUCCESS);
  REQUIRE(aclrtCreateEvent(&end) == ACL_SUCCESS);
  CHECK(aclrtRecordEvent(start, s) == ACL_SUCCESS);
  // The later copy wins: tasks run in the order they were put on the stream.
  CHECK(aclrtMemcpyAsync(dev, 4096, a.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, s) == ACL_SUCCESS);
  CHECK(aclrtMemcpyAsync(dev, 4096, b.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, s) == ACL_SUCCESS);
  CHECK(aclrtMemcpyAsync(back.data(), 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s) ==
        ACL_SUCCESS);
  static int calls = 0;
  CHECK(aclrtLaunchCallback([](void* p) { *static_cast<int*>(p) += 1; }, &calls, ACL_CALLBACK_BLOCK,
                            s) == ACL_SUCCESS);
  CHECK(aclrtRecordEvent(end, s) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(s) == ACL_SUCCESS);
  CHECK(back == b);
  CHECK(calls == 1);
  CHECK(aclrtSynchronizeEvent(end) == ACL_SUCCESS);
  aclrtEventRecordedStatus st;
  CHECK(aclrtQueryEventStatus(end, &st) == ACL_SUCCESS);
  CHECK(st == ACL_EVENT_RECORDED_STATUS_COMPLETE);
  float ms = -1.f;
  CHECK(aclrtEventElapsedTime(&ms, start, end) == ACL_SUCCESS);
  CHECK(ms >= 0.f);
  CHECK(aclrtDestroyEvent(start) == ACL_SUCCESS);
  CHECK(aclrtDestroyEvent(end) == ACL_SUCCESS);
  CHECK(aclrtDestroyEvent(end) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtDestroyStream(s) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(s) == ACL_ERROR_INVALID_PARAM);
  CHECK(msgHas("not a stream"));
  CHECK(aclrtSynchronizeStream(nullptr) == ACL_SUCCESS);  // the context's default stream
  CHECK(aclrtFree(dev) == ACL_SUCCESS);
}

TEST_CASE("data buffers, tensor descriptions, fp16") {
  float x = 0.f;
  aclDataBuffer* b = aclCreateDataBuffer(&x, 4);
  REQUIRE(b);
  CHECK(aclGetDataBufferAddr(b) == &x);
  CHECK(aclGetDataBufferSizeV2(b) == 4);
  CHECK(aclDestroyDataBuffer(b) == ACL_SUCCESS);
  CHECK(aclCreateDataBuffer(nullptr, 4) == nullptr);
  int64_t dims[] = {2, 3, 4};
  aclTensorDesc* d = aclCreateTensorDesc(ACL_FLOAT16, 3, dims, ACL_FORMAT_ND);
  REQUIRE(d);
  CHECK(aclGetTensorDescSize(d) == 48);
  CHECK(aclGetTensorDescElementCount(d) == 24);
  int64_t dim = 0;
  CHECK(aclGetTensorDescDimV2(d, 2, &dim) == ACL_SUCCESS);
  CHECK(dim == 4);
  CHECK(aclGetTensorDescDimV2(d, 3, &dim) == ACL_ERROR_INVALID_PARAM);
  aclDestroyTensorDesc(d);
  CHECK(aclDataTypeSize(ACL_INT64) == 8);
  CHECK(aclDataTypeSize(ACL_BOOL) == 1);
  // Complex tensors: custom operators declare them (ge::DT_COMPLEX64) and aclnn passes them.
  CHECK(aclDataTypeSize(ACL_COMPLEX64) == 8);
  CHECK(aclDataTypeSize(ACL_COMPLEX128) == 16);
  const int64_t cdims[] = {3, 5};
  aclTensorDesc* c = aclCreateTensorDesc(ACL_COMPLEX64, 2, cdims, ACL_FORMAT_ND);
  REQUIRE(c != nullptr);
  CHECK(aclGetTensorDescType(c) == ACL_COMPLEX64);
  CHECK(aclGetTensorDescSize(c) == 3 * 5 * 8);
  aclDestroyTensorDesc(c);
  CHECK(aclFloat16ToFloat(aclFloatToFloat16(1.5f)) == 1.5f);
  CHECK(aclFloatToFloat16(65504.f) == 0x7bff);
}

TEST_CASE("a model's description and an execution") {
  const std::string om = tinyOm();
  Ready r;
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(om.c_str(), &id) == ACL_SUCCESS);
  aclmdlDesc* d = aclmdlCreateDesc();
  REQUIRE(aclmdlGetDesc(d, id) == ACL_SUCCESS);
  CHECK(aclmdlGetNumInputs(d) == 1);
  CHECK(aclmdlGetNumOutputs(d) == 1);
  CHECK(aclmdlGetInputSizeByIndex(d, 0) == 3 * 8 * 8 * 4);
  CHECK(aclmdlGetOutputSizeByIndex(d, 0) == 4 * 8 * 8 * 4);
  CHECK(std::string(aclmdlGetInputNameByIndex(d, 0)) == "input");
  CHECK(aclmdlGetInputDataType(d, 0) == ACL_FLOAT);
  aclmdlIODims dims;
  CHECK(aclmdlGetOutputDims(d, 0, &dims) == ACL_SUCCESS);
  CHECK(dims.dimCount == 4);
  CHECK(dims.dims[1] == 4);
  CHECK(aclmdlGetInputDims(d, 5, &dims) == ACL_ERROR_INVALID_PARAM);
  size_t index = 9;
  CHECK(aclmdlGetInputIndexByName(d, "input", &index) == ACL_SUCCESS);
  CHECK(index == 0);
  CHECK(aclmdlGetInputIndexByName(d, ACL_DYNAMIC_TENSOR_NAME, &index) == ACL_ERROR_INVALID_PARAM);
  aclmdlBatch batch;
  CHECK(aclmdlGetDynamicBatch(d, &batch) == ACL_SUCCESS);
  CHECK(batch.batchCount == 0);
  aclmdlInputAippType type;
  size_t attached = 0;
  CHECK(aclmdlGetAippType(id, 0, &type, &attached) == ACL_SUCCESS);
  CHECK(type == ACL_DATA_WITHOUT_AIPP);
  aclAippInfo info;
  CHECK(aclmdlGetFirstAippInfo(id, 0, &info) == ACL_ERROR_GE_AIPP_NOT_EXIST);
  size_t work = 0, weight = 0;
  CHECK(aclmdlQuerySize(om.c_str(), &work, &weight) == ACL_SUCCESS);
  CHECK(weight > 0);
  {
    Buffers io(d);
    CHECK(aclmdlExecute(id, io.in, io.out) == ACL_SUCCESS);
    // The same bytes as the library's own session on zeros.
    std::vector<float> out(4 * 8 * 8);
    CHECK(aclrtMemcpy(out.data(), out.size() * 4, io.mem[1], out.size() * 4,
                      ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
    CHECK(aclmdlExecute(id + 7, io.in, io.out) == ACL_ERROR_INVALID_MODEL_ID);
    CHECK(msgHas("load it with aclmdlLoadFromFile"));
    CHECK(aclmdlExecute(id, nullptr, io.out) == ACL_ERROR_INVALID_PARAM);
    CHECK(aclmdlExecute(id, io.out, io.out) == ACL_SUCCESS);  // 1 buffer each; sizes are enough
  }
  // Wrong datasets: a missing buffer, a short buffer, host memory, a short output.
  {
    Buffers io(d);
    aclmdlDataset* empty = aclmdlCreateDataset();
    CHECK(aclmdlExecute(id, empty, io.out) == ACL_ERROR_INVALID_PARAM);
    CHECK(msgHas("holds 0 buffers"));
    aclmdlDestroyDataset(empty);
    aclUpdateDataBuffer(aclmdlGetDatasetBuffer(io.in, 0), io.mem[0], 100);
    CHECK(aclmdlExecute(id, io.in, io.out) == ACL_ERROR_INVALID_PARAM);
    CHECK(msgHas("needs 768 bytes; its buffer holds 100"));
    std::vector<char> host(768);
    aclUpdateDataBuffer(aclmdlGetDatasetBuffer(io.in, 0), host.data(), host.size());
    CHECK(aclmdlExecute(id, io.in, io.out) == ACL_ERROR_INVALID_PARAM);
    CHECK(msgHas("not device memory"));
    aclUpdateDataBuffer(aclmdlGetDatasetBuffer(io.in, 0), io.mem[0], 768);
    aclUpdateDataBuffer(aclmdlGetDatasetBuffer(io.out, 0), io.mem[1], 1000);
    CHECK(aclmdlExecute(id, io.in, io.out) == ACL_ERROR_INVALID_PARAM);
    CHECK(msgHas("output 0"));
    aclUpdateDataBuffer(aclmdlGetDatasetBuffer(io.out, 0), io.mem[1], 1024);
  }
  aclmdlDataset* ds = aclmdlCreateDataset();
  CHECK(aclmdlSetDynamicBatchSize(id, ds, 1, 2) == ACL_ERROR_MODEL_NOT_DYNAMIC);
  CHECK(aclmdlDestroyDataset(ds) == ACL_SUCCESS);
  CHECK(aclmdlDestroyDesc(d) == ACL_SUCCESS);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
  CHECK(aclmdlUnload(id) == ACL_ERROR_INVALID_MODEL_ID);
}

TEST_CASE("loading what is not a model") {
  Ready r;
  uint32_t id = 0;
  CHECK(aclmdlLoadFromFile(nullptr, &id) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlLoadFromFile("/nonexistent/m.om", &id) == ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID);
  CHECK(msgHas("/nonexistent/m.om"));
  const std::string bad = tmpDir() + "/bad.om";
  std::ofstream(bad) << "this is not an offline model, only text";
  CHECK(aclmdlLoadFromFile(bad.c_str(), &id) == ACL_ERROR_GE_LOAD_MODEL);
  CHECK(msgHas("E10041"));
  const char junk[] = "IMODjunk";
  CHECK(aclmdlLoadFromMem(junk, sizeof junk, &id) == ACL_ERROR_GE_LOAD_MODEL);
  CHECK(aclmdlLoadFromMem(nullptr, 10, &id) == ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("a model loaded from memory runs as from its file") {
  const std::string om = tinyOm();
  Ready r;
  std::ifstream f(om, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  uint32_t a = 0, b = 0;
  REQUIRE(aclmdlLoadFromFile(om.c_str(), &a) == ACL_SUCCESS);
  REQUIRE(aclmdlLoadFromMem(bytes.data(), bytes.size(), &b) == ACL_SUCCESS);
  CHECK(a != b);
  aclmdlDesc* d = aclmdlCreateDesc();
  REQUIRE(aclmdlGetDesc(d, a) == ACL_SUCCESS);
  Buffers x(d), y(d);
  std::vector<float> in(3 * 8 * 8);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 7) - 3.f;
  for (Buffers* io : {&x, &y})
    REQUIRE(aclrtMemcpy(io->mem[0], 768, in.data(), 768, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  REQUIRE(aclmdlExecute(a, x.in, x.out) == ACL_SUCCESS);
  REQUIRE(aclmdlExecute(b, y.in, y.out) == ACL_SUCCESS);
  CHECK(std::memcmp(x.mem[1], y.mem[1], 1024) == 0);
  aclmdlDestroyDesc(d);
  CHECK(aclmdlUnload(a) == ACL_SUCCESS);
  CHECK(aclmdlUnload(b) == ACL_SUCCESS);
}

TEST_CASE("four threads execute one model at once") {
  const std::string om = tinyOm();
  Ready r;
  aclrtContext ctx = nullptr;
  REQUIRE(aclrtGetCurrentContext(&ctx) == ACL_SUCCESS);
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(om.c_str(), &id) == ACL_SUCCESS);
  aclmdlDesc* d = aclmdlCreateDesc();
  REQUIRE(aclmdlGetDesc(d, id) == ACL_SUCCESS);
  // Reference: each thread's input (its own values) run alone first.
  auto input = [](int t) {
    std::vector<float> in(3 * 8 * 8);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float((i * (t + 3)) % 11) - 5.f;
    return in;
  };
  std::vector<std::vector<float>> want(4, std::vector<float>(256));
  for (int t = 0; t < 4; ++t) {
    Buffers io(d);
    auto in = input(t);
    REQUIRE(aclrtMemcpy(io.mem[0], 768, in.data(), 768, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    REQUIRE(aclmdlExecute(id, io.in, io.out) == ACL_SUCCESS);
    std::memcpy(want[t].data(), io.mem[1], 1024);
  }
  std::vector<int> mismatches(4, 0), failures(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      if (aclrtSetCurrentContext(ctx) != ACL_SUCCESS) {
        ++failures[t];
        return;
      }
      Buffers io(d);
      auto in = input(t);
      aclrtMemcpy(io.mem[0], 768, in.data(), 768, ACL_MEMCPY_HOST_TO_DEVICE);
      for (int k = 0; k < 25; ++k) {
        std::memset(io.mem[1], 0, 1024);
        if (aclmdlExecute(id, io.in, io.out) != ACL_SUCCESS) ++failures[t];
        if (std::memcmp(io.mem[1], want[t].data(), 1024) != 0) ++mismatches[t];
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) {
    CHECK(failures[t] == 0);
    CHECK(mismatches[t] == 0);
  }
  aclmdlDestroyDesc(d);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
}
