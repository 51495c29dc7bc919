// kernel_context.cpp: the per-thread state of a running block (which block, which chip, which
// tiling key), the settings ICPU_RUN_KF launches with, and the GmAlloc registry. Everything a
// block touches is thread-local; what is shared (ICPU options, GmAlloc registry) is behind a
// mutex or atomic.
#include "ascendc/launch_internal.h"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "asc/soc/soc.h"
#include "asc/support/log.h"
#include "cpu/features.h"

namespace asc::ascendc {

KernelError::KernelError(std::string call, const std::string& message)
    : std::runtime_error(call + ": " + message), call_(std::move(call)) {}

namespace detail {
namespace {

thread_local BlockContext* t_context = nullptr;

std::atomic<uint64_t> g_icpu_tiling_key{0};
std::atomic<int> g_kernel_mode{-1};
std::atomic<bool> g_cube_api{false};
std::atomic<bool> g_cube_only_api{false};

struct GmRegistry {
  std::mutex mu;
  std::map<uintptr_t, size_t> blocks;  // start -> bytes
};
GmRegistry& gm() {
  static GmRegistry r;
  return r;
}

}  // namespace

BlockContext* currentContext() { return t_context; }
ScopedBlockContext::ScopedBlockContext(BlockContext* ctx) : saved_(t_context) { t_context = ctx; }
ScopedBlockContext::~ScopedBlockContext() { t_context = saved_; }

uint64_t ubBytesOf(const char* soc) {
  auto chip = soc::findSoc(soc);
  return chip.isOk() ? (*chip)->ub_bytes : 0;
}

void failMessage(const char* call, const char* message) {
  throw KernelError(call ? call : "", message ? message : "");
}

int64_t blockIdx() { return t_context ? t_context->block_idx : 0; }
int64_t blockNum() { return t_context ? t_context->block_num : 1; }
int64_t subBlockIdx() { return t_context ? t_context->block_idx % t_context->sub_block_num : 0; }
int64_t subBlockNum() { return t_context ? t_context->sub_block_num : 1; }
const char* socName() { return t_context ? t_context->soc.c_str() : kDefaultSoc; }
uint64_t ubBytes() {
  static const uint64_t default_ub = ubBytesOf(kDefaultSoc);
  return t_context ? t_context->ub_bytes : default_ub;
}
uint64_t tilingKey() { return t_context ? t_context->tiling_key : g_icpu_tiling_key.load(); }
bool tilingKeyIs(uint64_t key) {
  const bool match = tilingKey() == key;
  if (t_context && t_context->key_tested) {
    *t_context->key_tested = true;
    if (match) *t_context->key_taken = true;
  }
  return match;
}
void setIcpuTilingKey(uint64_t key) { g_icpu_tiling_key = key; }
namespace {
thread_local int t_atomic_outside = 0;     // outside a launch (a kernel called directly)
thread_local BlockContext t_mask_outside;  // the mask register outside a launch
thread_local void* t_sys_workspace_outside = nullptr;
std::mutex g_atomic_mu;
}  // namespace
void syncAllBlocks() {
  if (t_context) syncAll(*t_context);  // outside a launch there is one block: nothing to wait for
}

void pollUntil(const char* call, const char* what, bool (*ready)(void*), void* arg) {
  if (ready(arg)) return;
  if (!t_context || !t_context->launch)
    fail(call, std::string(what) + ": outside a kernel launch no other block can change it");
  pollIn(*t_context, call, what, ready, arg);
}
void warnOnce(const char* call, const char* message) {
  if (t_context && t_context->launch) {
    if (firstWarningIn(*t_context, call))
      ASC_LOG_WARN("kernel '{}' block {}: {}", t_context->kernel_name, t_context->block_idx,
                   message);
    return;
  }
  static std::mutex mu;
  static std::set<std::string> warned;
  std::lock_guard<std::mutex> lock(mu);
  if (warned.insert(call).second) ASC_LOG_WARN("{}", message);
}
void noteProgress() {
  if (t_context && t_context->launch) noteProgressIn(*t_context);
}
void startCubeCore(int64_t aic_idx, void (*body)(void*), void* arg, void (*destroy)(void*)) {
  if (!t_context || !t_context->launch) {
    destroy(arg);
    fail("CreateCubeResGroup", "the cube cores run only within a kernel launch");
  }
  startHelper(*t_context, aic_idx, body, arg, destroy);
}
bool claimInLaunch(const void* key) {
  return !t_context || !t_context->launch || claimIn(*t_context, key);
}
int64_t cubeCoreNum() {
  return t_context ? t_context->block_num / std::max<int64_t>(1, t_context->sub_block_num) : 1;
}

void setAtomicMode(int mode) { (t_context ? t_context->atomic_mode : t_atomic_outside) = mode; }
int atomicMode() { return t_context ? t_context->atomic_mode : t_atomic_outside; }
void setVectorMaskMode(int counter) {
  (t_context ? *t_context : t_mask_outside).mask_counter = counter;
}
int vectorMaskMode() { return (t_context ? *t_context : t_mask_outside).mask_counter; }
void setVectorMaskBits(uint64_t hi, uint64_t lo) {
  BlockContext& c = t_context ? *t_context : t_mask_outside;
  c.mask_hi = hi;
  c.mask_lo = lo;
}
void vectorMaskBits(uint64_t* hi, uint64_t* lo) {
  const BlockContext& c = t_context ? *t_context : t_mask_outside;
  *hi = c.mask_hi;
  *lo = c.mask_lo;
}
void gmAtomicLock() { g_atomic_mu.lock(); }
void gmAtomicUnlock() { g_atomic_mu.unlock(); }
void setSysWorkspace(void* ptr) {
  (t_context ? t_context->sys_workspace : t_sys_workspace_outside) = ptr;
}
void* sysWorkspace() { return t_context ? t_context->sys_workspace : t_sys_workspace_outside; }
uint64_t icpuTilingKey() { return g_icpu_tiling_key.load(); }
void setKernelMode(int mode) { g_kernel_mode = mode; }
int kernelMode() { return g_kernel_mode.load(); }
void noteCubeApi() { g_cube_api = true; }
bool cubeApiNoted() { return g_cube_api.load(); }
void noteCubeOnlyApi() { g_cube_only_api = true; }
bool cubeOnlyApiNoted() { return g_cube_only_api.load(); }
bool onCubeCore() { return t_context && t_context->cube; }

void* gmAlloc(size_t bytes) {
  size_t rounded = (bytes + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, rounded ? rounded : 64);
  if (!p) return nullptr;
  std::memset(p, 0, rounded ? rounded : 64);
  std::lock_guard<std::mutex> lock(gm().mu);
  gm().blocks[reinterpret_cast<uintptr_t>(p)] = bytes;
  return p;
}

void gmFree(void* ptr) {
  if (!ptr) return;
  {
    std::lock_guard<std::mutex> lock(gm().mu);
    auto it = gm().blocks.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == gm().blocks.end()) {  // not ours: leave it alone rather than corrupt the heap
      ASC_LOG_WARN("GmFree: {} was not allocated by GmAlloc (or was freed already); ignored", ptr);
      return;
    }
    gm().blocks.erase(it);
  }
  std::free(ptr);
}

void gmRegister(const void* ptr, size_t bytes) {
  if (!ptr) return;
  std::lock_guard<std::mutex> lock(gm().mu);
  gm().blocks[reinterpret_cast<uintptr_t>(ptr)] = bytes;
}

void gmUnregister(const void* ptr) {
  std::lock_guard<std::mutex> lock(gm().mu);
  gm().blocks.erase(reinterpret_cast<uintptr_t>(ptr));
}

size_t gmExtent(const void* ptr) {
  auto p = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(gm().mu);
  auto it = gm().blocks.upper_bound(p);
  if (it == gm().blocks.begin()) return 0;
  --it;
  if (p >= it->first + it->second) return 0;
  return it->first + it->second - p;
}

// --- the unified buffer's blocks and DataCopy's moves ---------------------------------------

namespace {
ASC_AVX512 void copyBytes512(uint8_t* dst, const uint8_t* src, size_t n) {
  size_t i = 0;
  for (; i + 256 <= n; i += 256) {
    const __m512i a = _mm512_loadu_si512(src + i), b = _mm512_loadu_si512(src + i + 64);
    const __m512i c = _mm512_loadu_si512(src + i + 128), d = _mm512_loadu_si512(src + i + 192);
    _mm512_storeu_si512(dst + i, a);
    _mm512_storeu_si512(dst + i + 64, b);
    _mm512_storeu_si512(dst + i + 128, c);
    _mm512_storeu_si512(dst + i + 192, d);
  }
  for (; i + 64 <= n; i += 64) _mm512_storeu_si512(dst + i, _mm512_loadu_si512(src + i));
  if (i < n) std::memcpy(dst + i, src + i, n - i);
}
}  // namespace

namespace {
// ubAlloc's blocks: a 64-byte header holding the size, then the bytes.
constexpr size_t kUbHeader = 64;
constexpr size_t kUbKeptBytes = size_t(1) << 20;

// Whether this thread's cache still exists: a block freed after it is gone (a kernel object a
// program keeps in a static, destroyed after thread-local objects) is deleted at once.
thread_local bool t_ub_cache_alive = false;

struct UbCache {
  std::vector<std::pair<size_t, uint8_t*>> blocks;  // (bytes, header) this thread freed
  size_t kept = 0;
  UbCache() { t_ub_cache_alive = true; }
  ~UbCache() {
    t_ub_cache_alive = false;
    for (auto& b : blocks) ::operator delete[](b.second, std::align_val_t(64));
  }
};
thread_local UbCache t_ub_cache;
}  // namespace

void* ubAlloc(size_t bytes) {
  auto& cache = t_ub_cache;
  uint8_t* head = nullptr;
  for (size_t i = cache.blocks.size(); i-- > 0;) {
    if (cache.blocks[i].first != bytes) continue;
    head = cache.blocks[i].second;
    cache.kept -= bytes;
    cache.blocks.erase(cache.blocks.begin() + std::ptrdiff_t(i));
    break;
  }
  if (!head) {
    head = new (std::align_val_t(64)) uint8_t[kUbHeader + bytes];
    std::memcpy(head, &bytes, sizeof bytes);
  }
  std::memset(head + kUbHeader, 0, bytes);
  return head + kUbHeader;
}

void ubFree(void* ptr) {
  if (!ptr) return;
  uint8_t* head = static_cast<uint8_t*>(ptr) - kUbHeader;
  size_t bytes;
  std::memcpy(&bytes, head, sizeof bytes);
  auto& cache = t_ub_cache;  // made on first use; after its destructor, not made again
  if (t_ub_cache_alive && cache.kept + bytes <= kUbKeptBytes) {
    cache.blocks.emplace_back(bytes, head);
    cache.kept += bytes;
    return;
  }
  ::operator delete[](head, std::align_val_t(64));
}

bool wideVectors() {
  static const bool wide = cpu::avx512Isa();
  return wide;
}

void copyBytes(void* dst, const void* src, size_t n) {
  // Below a kilobyte memcpy's own vector path (no rep movsb) is as fast. Overlapping ranges
  // (a UB-to-UB copy onto itself) go to memmove.
  const auto* s = static_cast<const uint8_t*>(src);
  auto* d = static_cast<uint8_t*>(dst);
  const bool overlap = d < s + n && s < d + n;
  if (n >= 1024 && !overlap && wideVectors()) return copyBytes512(d, s, n);
  std::memmove(dst, src, n);
}

}  // namespace detail
}  // namespace asc::ascendc
