// runtime.cpp: aclInit/aclFinalize, the recent-error message, devices, contexts, streams, events
// and memory of asc-tools' AscendCL (docs/acl.md).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "acl_internal.h"
#include "asc/support/log.h"
#include "asc/trace/trace.h"

namespace asc::acl {
namespace {

thread_local std::string t_error;

// The one device: the CPU.
constexpr int32_t kDeviceCount = 1;

struct Context {
  int32_t device = 0;
  bool is_default = false;
  std::unique_ptr<Stream> default_stream;
};

struct State {
  std::mutex mu;
  bool initialized = false;
  bool finalized = false;
  std::set<Context*> contexts;
  std::map<int32_t, Context*> default_contexts;  // per device set with aclrtSetDevice
  std::set<Stream*> streams;
  std::map<uintptr_t, size_t> device_blocks;  // aclrtMalloc: start -> bytes
  std::set<void*> host_blocks;                // aclrtMallocHost
  std::mutex mem_mu;
};
State& state() {
  static State* s = new State();  // never destroyed: handles may be used from atexit handlers
  return *s;
}

thread_local Context* t_context = nullptr;
thread_local int32_t t_device = -1;

}  // namespace

struct Stream {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::function<aclError()>> tasks;
  bool running = false;  // a task is being run
  bool stop = false;
  aclError first_error = ACL_SUCCESS;
  std::string error_message;
  std::thread worker;

  ~Stream() {
    {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
    }
    cv.notify_all();
    if (worker.joinable()) worker.join();
  }
  void loop() {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      cv.wait(lock, [&] { return stop || !tasks.empty(); });
      if (tasks.empty()) return;  // stopped and drained
      auto task = std::move(tasks.front());
      tasks.pop_front();
      running = true;
      lock.unlock();
      aclError e = task();
      std::string msg = e == ACL_SUCCESS ? std::string() : t_error;
      lock.lock();
      running = false;
      if (e != ACL_SUCCESS && first_error == ACL_SUCCESS) {
        first_error = e;
        error_message = msg;
      }
      cv.notify_all();
    }
  }
  // Waits until every task put so far has run; returns (and clears) the first failure.
  aclError synchronize(int32_t timeout_ms) {
    std::unique_lock<std::mutex> lock(mu);
    auto idle = [&] { return tasks.empty() && !running; };
    if (timeout_ms < 0) {
      cv.wait(lock, idle);
    } else if (!cv.wait_for(lock, std::chrono::milliseconds(timeout_ms), idle)) {
      return setError(
          ACL_ERROR_RT_FAILURE,
          fmt::format("E19999 the stream's tasks did not finish within {} ms", timeout_ms));
    }
    aclError e = first_error;
    first_error = ACL_SUCCESS;
    if (e != ACL_SUCCESS) setError(e, error_message);
    return e;
  }
};

void enqueue(Stream* s, std::function<aclError()> task) {
  {
    std::lock_guard<std::mutex> lock(s->mu);
    s->tasks.push_back(std::move(task));
    if (!s->worker.joinable()) s->worker = std::thread([s] { s->loop(); });
  }
  s->cv.notify_all();
}

aclError setError(aclError code, std::string message) {
  t_error = std::move(message);
  log::write(log::Level::Info, "acl", t_error);
  return code;
}
void clearError() { t_error.clear(); }

aclError requireInit(const char* api) {
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  if (!st.initialized)
    return fail(ACL_ERROR_UNINITIALIZE, "{}: AscendCL is not initialized; call aclInit first", api);
  return ACL_SUCCESS;
}

aclError requireContext(const char* api) {
  if (aclError e = requireInit(api)) return e;
  if (!t_context)
    return fail(ACL_ERROR_RT_CONTEXT_NULL,
                "{}: this thread has no current context; call aclrtSetDevice or "
                "aclrtSetCurrentContext on it first",
                api);
  return ACL_SUCCESS;
}

bool isDeviceRange(const void* p, size_t bytes) {
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mem_mu);
  const auto addr = reinterpret_cast<uintptr_t>(p);
  auto it = st.device_blocks.upper_bound(addr);
  if (it == st.device_blocks.begin()) return false;
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

Stream* resolveStream(const char* api, aclrtStream handle, aclError* err) {
  *err = requireContext(api);
  if (*err) return nullptr;
  State& st = state();
  if (!handle) {
    std::lock_guard<std::mutex> lock(st.mu);
    if (!t_context->default_stream) t_context->default_stream = std::make_unique<Stream>();
    return t_context->default_stream.get();
  }
  std::lock_guard<std::mutex> lock(st.mu);
  auto* s = static_cast<Stream*>(handle);
  if (!st.streams.count(s)) {
    *err = fail(ACL_ERROR_INVALID_PARAM, "{}: {} is not a stream (destroyed, or never created)",
                api, handle);
    return nullptr;
  }
  return s;
}

}  // namespace asc::acl

using namespace asc::acl;
using asc::acl::state;

extern "C" {

const char* aclGetRecentErrMsg(void) { return t_error.c_str(); }

aclError aclInit(const char* configPath) {
  State& st = state();
  {
    std::lock_guard<std::mutex> lock(st.mu);
    if (st.initialized)
      return fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: AscendCL is already initialized");
  }
  if (configPath && *configPath) {
    std::ifstream f(configPath);
    if (!f)
      return fail(ACL_ERROR_INVALID_FILE, "aclInit: E13001 cannot open the configuration file '{}'",
                  configPath);
    // acl.json holds dump and profiling settings; asc-tools reads them from msame's and
    // msprof's own options, so a file that only parses is accepted.
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    size_t start = text.find_first_not_of(" \t\r\n");
    if (start != std::string::npos && text[start] != '{')
      return fail(ACL_ERROR_PARSE_FILE,
                  "aclInit: '{}' is not a JSON object (an acl.json starts with '{{')", configPath);
  }
  std::lock_guard<std::mutex> lock(st.mu);
  st.initialized = true;
  st.finalized = false;
  return ACL_SUCCESS;
}

aclError aclFinalize(void) {
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  if (!st.initialized)
    return st.finalized
               ? fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: AscendCL is already finalized")
               : fail(ACL_ERROR_UNINITIALIZE, "aclFinalize: aclInit was not called");
  st.initialized = false;
  st.finalized = true;
  return ACL_SUCCESS;
}

aclError aclrtGetVersion(int32_t* major, int32_t* minor, int32_t* patch) {
  if (!major || !minor || !patch)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: a null pointer");
  *major = ACL_MAJOR_VERSION;
  *minor = ACL_MINOR_VERSION;
  *patch = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}

// --- devices and contexts -------------------------------------------------------------------

static aclError checkDevice(const char* api, int32_t id) {
  if (id < 0 || id >= kDeviceCount)
    return fail(ACL_ERROR_RT_INVALID_DEVICEID,
                "{}: there is no device {}: asc-tools runs on the CPU, device 0 (the only one)",
                api, id);
  return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) {
  ASC_TRACE_SCOPE("AscendCL", "aclrtSetDevice");
  if (aclError e = requireInit("aclrtSetDevice")) return e;
  if (aclError e = checkDevice("aclrtSetDevice", deviceId)) return e;
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  Context*& ctx = st.default_contexts[deviceId];
  if (!ctx) {
    ctx = new Context();
    ctx->device = deviceId;
    ctx->is_default = true;
    st.contexts.insert(ctx);
  }
  t_context = ctx;
  t_device = deviceId;
  return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
  if (aclError e = requireInit("aclrtResetDevice")) return e;
  if (aclError e = checkDevice("aclrtResetDevice", deviceId)) return e;
  State& st = state();
  std::unique_ptr<Context> gone;
  {
    std::lock_guard<std::mutex> lock(st.mu);
    auto it = st.default_contexts.find(deviceId);
    if (it != st.default_contexts.end()) {
      gone.reset(it->second);
      st.contexts.erase(it->second);
      st.default_contexts.erase(it);
    }
    if (t_context == gone.get()) t_context = nullptr;
    if (t_device == deviceId) t_device = -1;
  }
  return ACL_SUCCESS;  // the default stream (if any) drains as `gone` is destroyed
}

aclError aclrtGetDevice(int32_t* deviceId) {
  if (!deviceId) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId is a null pointer");
  if (aclError e = requireContext("aclrtGetDevice")) return e;
  *deviceId = t_context->device;
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  if (!count) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is a null pointer");
  *count = kDeviceCount;
  return ACL_SUCCESS;
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  if (!runMode) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode: runMode is a null pointer");
  // The application runs on the host and the "device" is separate memory, as with an NPU in a
  // server: applications copy inputs host -> device and outputs back, as they must there.
  *runMode = ACL_HOST;
  return ACL_SUCCESS;
}

const char* aclrtGetSocName(void) { return "Ascend310P3"; }

aclError aclrtSynchronizeDevice(void) {
  if (aclError e = requireContext("aclrtSynchronizeDevice")) return e;
  std::vector<Stream*> all;
  {
    State& st = state();
    std::lock_guard<std::mutex> lock(st.mu);
    all.assign(st.streams.begin(), st.streams.end());
    for (Context* c : st.contexts)
      if (c->default_stream) all.push_back(c->default_stream.get());
  }
  aclError first = ACL_SUCCESS;
  for (Stream* s : all)
    if (aclError e = s->synchronize(-1); e && !first) first = e;
  return first;
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  if (!context)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: context is a null pointer");
  if (aclError e = requireInit("aclrtCreateContext")) return e;
  if (aclError e = checkDevice("aclrtCreateContext", deviceId)) return e;
  auto* ctx = new Context();
  ctx->device = deviceId;
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  st.contexts.insert(ctx);
  t_context = ctx;  // CANN makes a new context current on the calling thread
  t_device = deviceId;
  *context = ctx;
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  State& st = state();
  std::unique_ptr<Context> gone;
  {
    std::lock_guard<std::mutex> lock(st.mu);
    auto* ctx = static_cast<Context*>(context);
    if (!context || !st.contexts.count(ctx) || ctx->is_default)
      return fail(ACL_ERROR_INVALID_PARAM,
                  "aclrtDestroyContext: {} is not a context made by aclrtCreateContext (destroyed "
                  "already, or a device's default context, which aclrtResetDevice releases)",
                  context);
    st.contexts.erase(ctx);
    gone.reset(ctx);
    if (t_context == ctx) t_context = nullptr;
  }
  return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  auto* ctx = static_cast<Context*>(context);
  if (!context || !st.contexts.count(ctx))
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext: {} is not a live context",
                context);
  t_context = ctx;
  t_device = ctx->device;
  return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  if (!context)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context is a null pointer");
  if (aclError e = requireContext("aclrtGetCurrentContext")) return e;
  *context = t_context;
  return ACL_SUCCESS;
}

// --- streams and events ---------------------------------------------------------------------

aclError aclrtCreateStream(aclrtStream* stream) {
  if (!stream) return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is a null pointer");
  if (aclError e = requireContext("aclrtCreateStream")) return e;
  auto* s = new Stream();
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  st.streams.insert(s);
  *stream = s;
  return ACL_SUCCESS;
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t, uint32_t) {
  return aclrtCreateStream(stream);
}

aclError aclrtDestroyStream(aclrtStream stream) {
  State& st = state();
  std::unique_ptr<Stream> gone;
  {
    std::lock_guard<std::mutex> lock(st.mu);
    auto* s = static_cast<Stream*>(stream);
    if (!stream || !st.streams.count(s))
      return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: {} is not a live stream", stream);
    st.streams.erase(s);
    gone.reset(s);
  }
  return ACL_SUCCESS;  // its remaining tasks run before the worker stops
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  ASC_TRACE_SCOPE("AscendCL", "aclrtSynchronizeStream");
  aclError e;
  Stream* s = resolveStream("aclrtSynchronizeStream", stream, &e);
  return s ? s->synchronize(-1) : e;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  aclError e;
  Stream* s = resolveStream("aclrtSynchronizeStreamWithTimeout", stream, &e);
  return s ? s->synchronize(timeout) : e;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType,
                             aclrtStream stream) {
  if (!fn) return fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback: fn is a null pointer");
  aclError e;
  Stream* s = resolveStream("aclrtLaunchCallback", stream, &e);
  if (!s) return e;
  enqueue(s, [fn, userData] {
    fn(userData);
    return ACL_SUCCESS;
  });
  return ACL_SUCCESS;
}

namespace {
struct Event {
  std::mutex mu;
  std::condition_variable cv;
  uint64_t recorded = 0, completed = 0;  // generations
  std::chrono::steady_clock::time_point when;
};
std::mutex g_events_mu;
std::set<Event*>& events() {
  static auto* s = new std::set<Event*>();
  return *s;
}
Event* findEvent(const char* api, aclrtEvent handle, aclError* err) {
  std::lock_guard<std::mutex> lock(g_events_mu);
  auto* ev = static_cast<Event*>(handle);
  if (!handle || !events().count(ev)) {
    *err = fail(ACL_ERROR_INVALID_PARAM, "{}: {} is not a live event", api, handle);
    return nullptr;
  }
  return ev;
}
}  // namespace

aclError aclrtCreateEvent(aclrtEvent* event) {
  if (!event) return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent: event is a null pointer");
  if (aclError e = requireContext("aclrtCreateEvent")) return e;
  auto* ev = new Event();
  std::lock_guard<std::mutex> lock(g_events_mu);
  events().insert(ev);
  *event = ev;
  return ACL_SUCCESS;
}

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t) { return aclrtCreateEvent(event); }

aclError aclrtDestroyEvent(aclrtEvent event) {
  std::lock_guard<std::mutex> lock(g_events_mu);
  auto* ev = static_cast<Event*>(event);
  if (!event || !events().count(ev))
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: {} is not a live event", event);
  events().erase(ev);
  {
    // A record still queued holds the event: wait for it before freeing.
    std::unique_lock<std::mutex> el(ev->mu);
    ev->cv.wait(el, [&] { return ev->completed == ev->recorded; });
  }
  delete ev;
  return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  aclError e;
  Event* ev = findEvent("aclrtRecordEvent", event, &e);
  if (!ev) return e;
  Stream* s = resolveStream("aclrtRecordEvent", stream, &e);
  if (!s) return e;
  uint64_t gen;
  {
    std::lock_guard<std::mutex> lock(ev->mu);
    gen = ++ev->recorded;
  }
  enqueue(s, [ev, gen] {
    std::lock_guard<std::mutex> lock(ev->mu);
    ev->when = std::chrono::steady_clock::now();
    if (ev->completed < gen) ev->completed = gen;
    ev->cv.notify_all();
    return ACL_SUCCESS;
  });
  return ACL_SUCCESS;
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  aclError e;
  Event* ev = findEvent("aclrtResetEvent", event, &e);
  if (!ev) return e;
  if (!resolveStream("aclrtResetEvent", stream, &e)) return e;
  return ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  if (!status)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtQueryEventStatus: status is a null pointer");
  aclError e;
  Event* ev = findEvent("aclrtQueryEventStatus", event, &e);
  if (!ev) return e;
  std::lock_guard<std::mutex> lock(ev->mu);
  *status = ev->completed == ev->recorded ? ACL_EVENT_RECORDED_STATUS_COMPLETE
                                          : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  aclError e;
  Event* ev = findEvent("aclrtSynchronizeEvent", event, &e);
  if (!ev) return e;
  std::unique_lock<std::mutex> lock(ev->mu);
  const uint64_t want = ev->recorded;
  ev->cv.wait(lock, [&] { return ev->completed >= want; });
  return ACL_SUCCESS;
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  aclError e;
  Event* ev = findEvent("aclrtStreamWaitEvent", event, &e);
  if (!ev) return e;
  Stream* s = resolveStream("aclrtStreamWaitEvent", stream, &e);
  if (!s) return e;
  uint64_t want;
  {
    std::lock_guard<std::mutex> lock(ev->mu);
    want = ev->recorded;
  }
  enqueue(s, [ev, want] {
    std::unique_lock<std::mutex> lock(ev->mu);
    ev->cv.wait(lock, [&] { return ev->completed >= want; });
    return ACL_SUCCESS;
  });
  return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  if (!ms) return fail(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: ms is a null pointer");
  aclError e;
  Event* a = findEvent("aclrtEventElapsedTime", startEvent, &e);
  if (!a) return e;
  Event* b = findEvent("aclrtEventElapsedTime", endEvent, &e);
  if (!b) return e;
  std::chrono::steady_clock::time_point ta, tb;
  {
    std::lock_guard<std::mutex> la(a->mu);
    if (!a->completed || a->completed != a->recorded)
      return fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                  "aclrtEventElapsedTime: the start event has not completed; synchronize it first");
    ta = a->when;
  }
  {
    std::lock_guard<std::mutex> lb(b->mu);
    if (!b->completed || b->completed != b->recorded)
      return fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                  "aclrtEventElapsedTime: the end event has not completed; synchronize it first");
    tb = b->when;
  }
  *ms = std::chrono::duration<float, std::milli>(tb - ta).count();
  return ACL_SUCCESS;
}

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
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mem_mu);
  if (device)
    st.device_blocks[reinterpret_cast<uintptr_t>(p)] = size;
  else
    st.host_blocks.insert(p);
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

aclError aclrtFree(void* devPtr) {
  ASC_TRACE_SCOPE("AscendCL", "aclrtFree");
  if (!devPtr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: devPtr is a null pointer");
  State& st = state();
  {
    std::lock_guard<std::mutex> lock(st.mem_mu);
    auto it = st.device_blocks.find(reinterpret_cast<uintptr_t>(devPtr));
    if (it == st.device_blocks.end())
      return fail(ACL_ERROR_RT_PARAM_INVALID,
                  "aclrtFree: {} is not the start of device memory from aclrtMalloc (freed "
                  "already, or host memory: aclrtFreeHost frees aclrtMallocHost's)",
                  devPtr);
    st.device_blocks.erase(it);
  }
  std::free(devPtr);
  return ACL_SUCCESS;
}

aclError aclrtFreeHost(void* hostPtr) {
  if (!hostPtr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost: hostPtr is a null pointer");
  State& st = state();
  {
    std::lock_guard<std::mutex> lock(st.mem_mu);
    if (!st.host_blocks.erase(hostPtr))
      return fail(ACL_ERROR_RT_PARAM_INVALID,
                  "aclrtFreeHost: {} is not memory from aclrtMallocHost (freed already, or device "
                  "memory: aclrtFree frees aclrtMalloc's)",
                  hostPtr);
  }
  std::free(hostPtr);
  return ACL_SUCCESS;
}

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
    State& st = state();
    std::lock_guard<std::mutex> lock(st.mem_mu);
    if (!st.host_blocks.count(p))
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

void aclAppLog(aclLogLevel logLevel, const char* func, const char*, uint32_t, const char* fmtText,
               ...) {
  if (!fmtText) return;
  const auto level = static_cast<asc::log::Level>(logLevel < ACL_DEBUG   ? 0
                                                  : logLevel > ACL_ERROR ? 3
                                                                         : logLevel);
  if (!asc::log::enabled(level)) return;
  char buf[1024];
  va_list ap;
  va_start(ap, fmtText);
  std::vsnprintf(buf, sizeof buf, fmtText, ap);
  va_end(ap);
  asc::log::write(level, func ? func : "app", buf);
}

}  // extern "C"
