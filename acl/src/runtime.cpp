// runtime.cpp: aclInit/aclFinalize, the recent-error message, devices and contexts of asc-tools'
// AscendCL (docs/acl.md); streams and events are stream.cpp, memory memory.cpp.
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

#include "acl_state.h"
#include "asc/support/log.h"
#include "asc/trace/trace.h"

namespace asc::acl {
namespace {

thread_local std::string t_error;
thread_local Context* t_context = nullptr;

// The one device: the CPU.
constexpr int32_t kDeviceCount = 1;

}  // namespace

const std::string& recentError() { return t_error; }
Context*& threadContext() { return t_context; }
State& state() {
  static State* s = new State();  // never destroyed: handles may be used from atexit handlers
  return *s;
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
  return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  if (!context)
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context is a null pointer");
  if (aclError e = requireContext("aclrtGetCurrentContext")) return e;
  *context = t_context;
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
