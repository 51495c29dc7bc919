// memory.cpp: device and host memory of asc-tools' AscendCL (docs/acl.md): aclrtMalloc blocks
// are tracked by address so that copies, memsets and executions can check that a device-side
// pointer lies inside one, as an NPU would fail on anything else.
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>

#include "acl_internal.h"
#include "asc/ascendc/kernel_context.h"
#include "asc/trace/trace.h"

namespace asc::acl {
namespace {

struct Blocks {
  std::mutex mu;
  std::map<uintptr_t, size_t> device;  // aclrtMalloc: start -> bytes
  std::map<uintptr_t, size_t> host;    // aclrtMallocHost: start -> bytes
};
Blocks& blocks() {
  static Blocks* b = new Blocks();  // never destroyed, as the rest of the state
  return *b;
}

}  // namespace

bool isDeviceRange(const void* p, size_t bytes) {
  Blocks& st = blocks();
  std::lock_guard<std::mutex> lock(st.mu);
  const auto addr = reinterpret_cast<uintptr_t>(p);
  auto it = st.device.upper_bound(addr);
  if (it == st.device.begin()) return false;
  --it;
  return addr >= it->first && bytes <= it->second && addr - it->first <= it->second - bytes;
}

aclError checkDeviceRange(const char* api, const char* what, const void* p, size_t bytes) {
  if (isDeviceRange(p, bytes)) return ACL_SUCCESS;
  return fail(ACL_ERROR_INVALID_PARAM,
              "{}: the {} ({} bytes at {}) is not device memory: allocate it with aclrtMalloc (an "
              "NPU reads only device memory there)",
              api, what, bytes, p);
}

}  // namespace asc::acl

using namespace asc::acl;

extern "C" {

// --- memory ---------------------------------------------------------------------------------

static aclError allocate(const char* api, void** ptr, size_t size, bool device) {
  if (!ptr) return fail(ACL_ERROR_INVALID_PARAM, "{}: the pointer to fill is null", api);
  if (size == 0) return fail(ACL_ERROR_INVALID_PARAM, "{}: size is 0", api);
  if (aclError e = requireContext(api)) return e;
  // 64-byte aligned (a cache line; an NPU's blocks are 32-byte aligned), rounded up to whole
  // lines so that aligned_alloc's contract holds.
  const size_t rounded = (size + 63) / 64 * 64;
  if (rounded < size)
    return fail(ACL_ERROR_BAD_ALLOC, "{}: {} bytes cannot be allocated", api, size);
  void* p = std::aligned_alloc(64, rounded);
  if (!p) return fail(ACL_ERROR_BAD_ALLOC, "{}: out of memory allocating {} bytes", api, size);
  Blocks& st = blocks();
  std::lock_guard<std::mutex> lock(st.mu);
  if (device) {
    st.device[reinterpret_cast<uintptr_t>(p)] = size;
    // Kernels launched on this memory (aclnn, single operators) check their global accesses
    // against the allocation.
    asc::ascendc::detail::gmRegister(p, size);
  } else
    st.host[reinterpret_cast<uintptr_t>(p)] = size;
  *ptr = p;
  return ACL_SUCCESS;
}

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  ASC_TRACE_SCOPE("AscendCL", "aclrtMalloc");
  if (policy < ACL_MEM_MALLOC_HUGE_FIRST || policy > ACL_MEM_MALLOC_NORMAL_ONLY_P2P)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: {} is not an aclrtMemMallocPolicy",
                static_cast<int>(policy));
  return allocate("aclrtMalloc", devPtr, size, true);
}

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return aclrtMalloc(devPtr, size, policy);
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  return allocate("aclrtMallocHost", hostPtr, size, false);
}

// aclrtFree/aclrtFreeHost: `ptr` must start a live block of its kind.
static aclError release(const char* api, void* ptr, bool device) {
  if (!ptr) return fail(ACL_ERROR_INVALID_PARAM, "{}: the pointer is null", api);
  Blocks& st = blocks();
  {
    std::lock_guard<std::mutex> lock(st.mu);
    auto& kind = device ? st.device : st.host;
    if (device && kind.count(reinterpret_cast<uintptr_t>(ptr)))
      asc::ascendc::detail::gmUnregister(ptr);
    if (!kind.erase(reinterpret_cast<uintptr_t>(ptr)))
      return fail(ACL_ERROR_RT_PARAM_INVALID,
                  "{}: {} is not the start of {} memory from {} (freed already, or {} memory: {} "
                  "frees {}'s)",
                  api, ptr, device ? "device" : "host", device ? "aclrtMalloc" : "aclrtMallocHost",
                  device ? "host" : "device", device ? "aclrtFreeHost" : "aclrtFree",
                  device ? "aclrtMallocHost" : "aclrtMalloc");
  }
  std::free(ptr);
  return ACL_SUCCESS;
}

aclError aclrtFree(void* devPtr) {
  ASC_TRACE_SCOPE("AscendCL", "aclrtFree");
  return release("aclrtFree", devPtr, true);
}

aclError aclrtFreeHost(void* hostPtr) { return release("aclrtFreeHost", hostPtr, false); }

static aclError checkCopy(const char* api, void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind) {
  if (!dst || !src)
    return fail(ACL_ERROR_INVALID_PARAM, "{}: {} is a null pointer", api, dst ? "src" : "dst");
  if (count > destMax)
    return fail(ACL_ERROR_INVALID_PARAM, "{}: count {} is more than destMax {}", api, count,
                destMax);
  if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEFAULT)
    return fail(ACL_ERROR_INVALID_PARAM, "{}: {} is not an aclrtMemcpyKind", api,
                static_cast<int>(kind));
  if (aclError e = requireContext(api)) return e;
  if (count == 0) return ACL_SUCCESS;
  const bool src_dev = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
  const bool dst_dev = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
  if (kind != ACL_MEMCPY_DEFAULT) {
    if (src_dev) {
      if (aclError e = checkDeviceRange(api, "source", src, count)) return e;
    } else if (isDeviceRange(src, 1)) {
      return fail(
          ACL_ERROR_INVALID_PARAM,
          "{}: the source {} is device memory but the kind says host; use a *_DEVICE_* kind", api,
          src);
    }
    if (dst_dev) {
      if (aclError e = checkDeviceRange(api, "destination", dst, count)) return e;
    } else if (isDeviceRange(dst, 1)) {
      return fail(
          ACL_ERROR_INVALID_PARAM,
          "{}: the destination {} is device memory but the kind says host; use a *_TO_DEVICE kind",
          api, dst);
    }
  }
  return ACL_SUCCESS;
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind) {
  ASC_TRACE_SCOPE("AscendCL", "aclrtMemcpy");
  if (aclError e = checkCopy("aclrtMemcpy", dst, destMax, src, count, kind)) return e;
  if (count) std::memmove(dst, src, count);
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
  ASC_TRACE_SCOPE("AscendCL", "aclrtMemcpyAsync");
  if (aclError e = checkCopy("aclrtMemcpyAsync", dst, destMax, src, count, kind)) return e;
  aclError e;
  Stream* s = resolveStream("aclrtMemcpyAsync", stream, &e);
  if (!s) return e;
  enqueue(s, [dst, src, count] {
    if (count) std::memmove(dst, src, count);
    return ACL_SUCCESS;
  });
  return ACL_SUCCESS;
}

static aclError checkSet(const char* api, void* p, size_t maxCount, size_t count) {
  if (!p) return fail(ACL_ERROR_INVALID_PARAM, "{}: devPtr is a null pointer", api);
  if (count > maxCount)
    return fail(ACL_ERROR_INVALID_PARAM, "{}: count {} is more than maxCount {}", api, count,
                maxCount);
  if (aclError e = requireContext(api)) return e;
  // CANN's memset takes device memory, or host memory from aclrtMallocHost.
  if (count && !isDeviceRange(p, count)) {
    Blocks& st = blocks();
    std::lock_guard<std::mutex> lock(st.mu);
    if (!st.host.count(reinterpret_cast<uintptr_t>(p)))
      return fail(ACL_ERROR_INVALID_PARAM,
                  "{}: {} ({} bytes) is neither device memory from aclrtMalloc nor host memory "
                  "from aclrtMallocHost",
                  api, p, count);
  }
  return ACL_SUCCESS;
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  if (aclError e = checkSet("aclrtMemset", devPtr, maxCount, count)) return e;
  std::memset(devPtr, value, count);
  return ACL_SUCCESS;
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                          aclrtStream stream) {
  if (aclError e = checkSet("aclrtMemsetAsync", devPtr, maxCount, count)) return e;
  aclError e;
  Stream* s = resolveStream("aclrtMemsetAsync", stream, &e);
  if (!s) return e;
  enqueue(s, [devPtr, value, count] {
    std::memset(devPtr, value, count);
    return ACL_SUCCESS;
  });
  return ACL_SUCCESS;
}

aclError aclrtGetMemInfo(aclrtMemAttr, size_t* free, size_t* total) {
  if (!free || !total) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: a null pointer");
  if (aclError e = requireContext("aclrtGetMemInfo")) return e;
  std::ifstream f("/proc/meminfo");
  std::string key;
  size_t kb = 0, mem_total = 0, mem_avail = 0;
  std::string unit;
  while (f >> key >> kb >> unit) {
    if (key == "MemTotal:") mem_total = kb * 1024;
    if (key == "MemAvailable:") mem_avail = kb * 1024;
  }
  *total = mem_total;
  *free = mem_avail;
  return ACL_SUCCESS;
}

}  // extern "C"
