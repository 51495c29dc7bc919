// acl_overhead.cpp: what aclmdlExecute costs over the bare runtime session it wraps, on one model
// (scripts/bench/acl.sh builds and runs it). Both sides load the same OM; the bare side times
// Session::setInput + Session::run (the work msame times), the AscendCL side times aclmdlExecute
// on device buffers (input copy, run, output copy). Calls alternate side by side; printed: the
// medians of each side's per-call times and of the paired differences (bare_us=... acl_us=...
// overhead_us=... overhead_pct=...).
//
//   acl_overhead MODEL.om ROUNDS CALLS_PER_ROUND
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "asc/runtime/session.h"

namespace {
double nowUs() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty()      ? 0
         : v.size() % 2 ? v[v.size() / 2]
                        : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}
#define CHECK(x)                                                         \
  do {                                                                   \
    if ((x) != ACL_SUCCESS) {                                            \
      std::fprintf(stderr, "%s failed: %s\n", #x, aclGetRecentErrMsg()); \
      return 1;                                                          \
    }                                                                    \
  } while (0)
}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: acl_overhead MODEL.om ROUNDS CALLS_PER_ROUND\n");
    return 2;
  }
  const char* om = argv[1];
  const int rounds = std::atoi(argv[2]), calls = std::atoi(argv[3]);
  auto bare = asc::runtime::Session::load(om);
  if (!bare) {
    std::fprintf(stderr, "%s\n", bare.status().toString().c_str());
    return 1;
  }
  asc::runtime::Session& s = **bare;
  std::mt19937 rng(7);
  std::vector<std::vector<char>> inputs;
  for (const auto& t : s.inputs()) {
    std::vector<char> b(t.bytes);
    if (t.dtype ==
        asc::ir::DType::F32) {  // normal floats in [-1, 1) (random bytes would be denormals)
      std::uniform_real_distribution<float> u(-1.f, 1.f);
      for (size_t k = 0; k + 4 <= b.size(); k += 4) {
        float v = u(rng);
        std::memcpy(&b[k], &v, 4);
      }
    } else {
      for (auto& c : b) c = static_cast<char>(rng() % 7);  // small integers
    }
    inputs.push_back(std::move(b));
  }

  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  uint32_t id = 0;
  CHECK(aclmdlLoadFromFile(om, &id));
  aclmdlDesc* desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(desc, id));
  aclmdlDataset* in = aclmdlCreateDataset();
  aclmdlDataset* out = aclmdlCreateDataset();
  for (size_t i = 0; i < aclmdlGetNumInputs(desc); ++i) {
    size_t size = aclmdlGetInputSizeByIndex(desc, i);
    void* dev = nullptr;
    CHECK(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dev, size, inputs[i].data(), inputs[i].size(), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(dev, size)));
  }
  for (size_t i = 0; i < aclmdlGetNumOutputs(desc); ++i) {
    size_t size = aclmdlGetOutputSizeByIndex(desc, i);
    void* dev = nullptr;
    CHECK(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(dev, size)));
  }
  // Warm both.
  for (size_t i = 0; i < inputs.size(); ++i)
    (void)s.setInput(i, inputs[i].data(), inputs[i].size());
  if (!s.run()) return 1;
  CHECK(aclmdlExecute(id, in, out));
  // Same bytes on both sides.
  for (size_t i = 0; i < s.outputs().size(); ++i)
    if (std::memcmp(s.outputData(i), aclGetDataBufferAddr(aclmdlGetDatasetBuffer(out, i)),
                    s.outputs()[i].bytes)) {
      std::fprintf(stderr, "output %zu differs between the session and aclmdlExecute\n", i);
      return 1;
    }

  // Calls alternate one by one (bare then AscendCL, then the other way round), so drift in the
  // machine's speed falls on both sides; the overhead is the median of the paired differences.
  std::vector<double> bare_us, acl_us, diff_us;
  for (int k = 0; k < rounds * calls; ++k) {
    double b = 0, a = 0;
    for (int side = 0; side < 2; ++side) {
      const bool acl_now = (side == 0) == (k % 2 == 1);
      double t0 = nowUs();
      if (acl_now) {
        if (aclmdlExecute(id, in, out) != ACL_SUCCESS) std::abort();
        a = nowUs() - t0;
      } else {
        for (size_t i = 0; i < inputs.size(); ++i)
          (void)s.setInput(i, inputs[i].data(), inputs[i].size());
        (void)s.run();
        b = nowUs() - t0;
      }
    }
    bare_us.push_back(b);
    acl_us.push_back(a);
    diff_us.push_back(a - b);
  }
  const double b = median(bare_us), a = median(acl_us), d = median(diff_us);
  std::printf("bare_us=%.3f acl_us=%.3f overhead_us=%.3f overhead_pct=%.3f\n", b, a, d,
              100.0 * d / b);
  aclmdlUnload(id);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
