// An inference application in the shape of Ascend's AscendCL samples, written for asc-tools'
// tests: init, device, context, stream, load, description, datasets of device buffers, execute,
// copy back, teardown. It writes output_<i>.bin files and prints what the model reports.
//
//   main MODEL.om OUT_DIR [--input a.bin,b.bin] [--batch N] [--hw H,W] [--dims d0,d1,...]
//        [--async] [--threads N] [--mem] [--loop N]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"

#define CHECK(call)                                                                            \
  do {                                                                                         \
    aclError ret_ = (call);                                                                    \
    if (ret_ != ACL_SUCCESS) {                                                                 \
      std::fprintf(stderr, "[ERROR] %s failed: %d (%s)\n", #call, ret_, aclGetRecentErrMsg()); \
      return 1;                                                                                \
    }                                                                                          \
  } while (0)

struct Options {
  std::string model, out;
  std::vector<std::string> inputs;
  long batch = -1;
  std::vector<long> hw, dims;
  bool async = false, mem = false;
  int threads = 1, loop = 1;
};

static std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream ss(s);
  std::string p;
  while (std::getline(ss, p, sep)) parts.push_back(p);
  return parts;
}

static std::vector<char> readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

struct Io {
  aclmdlDataset* in = nullptr;
  aclmdlDataset* out = nullptr;
  std::vector<void*> device;
};

// Builds the input and output datasets of one worker: device buffers of the sizes the model
// description gives, inputs copied from the files (zeros without), the profile set if any.
static int prepare(const Options& o, uint32_t id, aclmdlDesc* desc, Io* io) {
  io->in = aclmdlCreateDataset();
  io->out = aclmdlCreateDataset();
  size_t dynIndex = (size_t)-1;
  if (aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &dynIndex) != ACL_SUCCESS)
    dynIndex = (size_t)-1;
  for (size_t i = 0; i < aclmdlGetNumInputs(desc); ++i) {
    size_t size = aclmdlGetInputSizeByIndex(desc, i);
    void* dev = nullptr;
    CHECK(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
    io->device.push_back(dev);
    CHECK(aclrtMemset(dev, size, 0, size));
    if (i != dynIndex && i < o.inputs.size()) {
      std::vector<char> host = readFile(o.inputs[i]);
      if (host.size() > size) {
        std::fprintf(stderr, "[ERROR] %s is %zu bytes; input %zu takes %zu\n", o.inputs[i].c_str(),
                     host.size(), i, size);
        return 1;
      }
      CHECK(aclrtMemcpy(dev, size, host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE));
    }
    CHECK(aclmdlAddDatasetBuffer(io->in, aclCreateDataBuffer(dev, size)));
  }
  if (o.batch > 0) CHECK(aclmdlSetDynamicBatchSize(id, io->in, dynIndex, (uint64_t)o.batch));
  if (o.hw.size() == 2) CHECK(aclmdlSetDynamicHWSize(id, io->in, dynIndex, o.hw[0], o.hw[1]));
  if (!o.dims.empty()) {
    aclmdlIODims d;
    std::memset(&d, 0, sizeof d);
    d.dimCount = o.dims.size();
    for (size_t k = 0; k < o.dims.size(); ++k) d.dims[k] = o.dims[k];
    CHECK(aclmdlSetInputDynamicDims(id, io->in, dynIndex, &d));
  }
  for (size_t i = 0; i < aclmdlGetNumOutputs(desc); ++i) {
    size_t size = aclmdlGetOutputSizeByIndex(desc, i);
    void* dev = nullptr;
    CHECK(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_NORMAL_ONLY));
    io->device.push_back(dev);
    CHECK(aclmdlAddDatasetBuffer(io->out, aclCreateDataBuffer(dev, size)));
  }
  return 0;
}

static void destroy(Io* io) {
  for (aclmdlDataset* ds : {io->in, io->out}) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i)
      aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
    aclmdlDestroyDataset(ds);
  }
  for (void* p : io->device) aclrtFree(p);
}

// Copies the outputs back and writes them (the real size of a dynamic output comes from the
// output dataset's tensor description).
static int writeOutputs(const Options& o, aclmdlDesc* desc, Io* io, const std::string& suffix) {
  for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(io->out); ++i) {
    aclDataBuffer* b = aclmdlGetDatasetBuffer(io->out, i);
    size_t size = aclGetDataBufferSizeV2(b);
    aclTensorDesc* real = aclmdlGetDatasetTensorDesc(io->out, i);
    if (real) size = aclGetTensorDescSize(real);
    std::vector<char> host(size);
    CHECK(aclrtMemcpy(host.data(), host.size(), aclGetDataBufferAddr(b), size,
                      ACL_MEMCPY_DEVICE_TO_HOST));
    std::string path = o.out + "/output_" + std::to_string(i) + suffix + ".bin";
    std::ofstream(path, std::ios::binary).write(host.data(), (std::streamsize)host.size());
    if (suffix.empty()) {
      aclmdlIODims dims;
      CHECK(aclmdlGetOutputDims(desc, i, &dims));
      std::printf("output %zu %s dtype %d size %zu dims", i, aclmdlGetOutputNameByIndex(desc, i),
                  (int)aclmdlGetOutputDataType(desc, i), size);
      for (size_t k = 0; k < dims.dimCount; ++k) std::printf(" %ld", (long)dims.dims[k]);
      std::printf("\n");
    }
  }
  return 0;
}

static int worker(const Options& o, aclrtContext ctx, uint32_t id, aclmdlDesc* desc, int index,
                  int* result) {
  *result = 1;
  CHECK(aclrtSetCurrentContext(ctx));
  Io io;
  if (prepare(o, id, desc, &io)) return 1;
  aclrtStream stream = nullptr;
  if (o.async) CHECK(aclrtCreateStream(&stream));
  for (int k = 0; k < o.loop; ++k) {
    if (o.async) {
      CHECK(aclmdlExecuteAsync(id, io.in, io.out, stream));
      CHECK(aclrtSynchronizeStream(stream));
    } else {
      CHECK(aclmdlExecute(id, io.in, io.out));
    }
  }
  if (writeOutputs(o, desc, &io, index == 0 ? "" : "_t" + std::to_string(index))) return 1;
  if (stream) CHECK(aclrtDestroyStream(stream));
  destroy(&io);
  *result = 0;
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: main MODEL.om OUT_DIR [options]\n");
    return 2;
  }
  Options o;
  o.model = argv[1];
  o.out = argv[2];
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    std::string v = i + 1 < argc ? argv[i + 1] : "";
    if (a == "--input")
      o.inputs = split(v, ','), ++i;
    else if (a == "--batch")
      o.batch = std::atol(v.c_str()), ++i;
    else if (a == "--hw") {
      for (auto& s : split(v, ',')) o.hw.push_back(std::atol(s.c_str()));
      ++i;
    } else if (a == "--dims") {
      for (auto& s : split(v, ',')) o.dims.push_back(std::atol(s.c_str()));
      ++i;
    } else if (a == "--threads")
      o.threads = std::atoi(v.c_str()), ++i;
    else if (a == "--loop")
      o.loop = std::atoi(v.c_str()), ++i;
    else if (a == "--async")
      o.async = true;
    else if (a == "--mem")
      o.mem = true;
    else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }

  CHECK(aclInit(nullptr));
  int32_t device = 0;
  CHECK(aclrtSetDevice(device));
  aclrtContext context = nullptr;
  CHECK(aclrtCreateContext(&context, device));
  aclrtRunMode mode;
  CHECK(aclrtGetRunMode(&mode));
  std::printf("run mode %s\n", mode == ACL_HOST ? "host" : "device");

  uint32_t id = 0;
  std::vector<char> bytes;
  if (o.mem) {
    bytes = readFile(o.model);
    CHECK(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id));
  } else {
    CHECK(aclmdlLoadFromFile(o.model.c_str(), &id));
  }
  std::printf("load model %s success, model id %u\n", o.model.c_str(), id);
  aclmdlDesc* desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(desc, id));
  for (size_t i = 0; i < aclmdlGetNumInputs(desc); ++i) {
    aclmdlIODims dims;
    CHECK(aclmdlGetInputDims(desc, i, &dims));
    std::printf("input %zu %s dtype %d format %d size %zu dims", i,
                aclmdlGetInputNameByIndex(desc, i), (int)aclmdlGetInputDataType(desc, i),
                (int)aclmdlGetInputFormat(desc, i), aclmdlGetInputSizeByIndex(desc, i));
    for (size_t k = 0; k < dims.dimCount; ++k) std::printf(" %ld", (long)dims.dims[k]);
    std::printf("\n");
  }
  aclmdlBatch batch;
  CHECK(aclmdlGetDynamicBatch(desc, &batch));
  if (batch.batchCount) {
    std::printf("dynamic batch");
    for (size_t k = 0; k < batch.batchCount; ++k)
      std::printf(" %lu", (unsigned long)batch.batch[k]);
    std::printf("\n");
  }

  std::vector<int> results(o.threads, 1);
  if (o.threads == 1) {
    worker(o, context, id, desc, 0, &results[0]);
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < o.threads; ++t)
      pool.emplace_back([&, t] { worker(o, context, id, desc, t, &results[t]); });
    for (auto& th : pool) th.join();
  }
  int failed = 0;
  for (int r : results) failed += r;

  CHECK(aclmdlDestroyDesc(desc));
  CHECK(aclmdlUnload(id));
  std::printf("unload model success, model id %u\n", id);
  CHECK(aclrtDestroyContext(context));
  CHECK(aclrtResetDevice(device));
  CHECK(aclFinalize());
  if (failed) {
    std::fprintf(stderr, "[ERROR] %d worker(s) failed\n", failed);
    return 1;
  }
  std::printf("execute sample success\n");
  return 0;
}
