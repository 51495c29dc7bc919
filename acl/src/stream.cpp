// stream.cpp: streams (ordered task queues, a worker thread each) and events of asc-tools'
// AscendCL (docs/acl.md).
#include <chrono>
#include <set>

#include "acl_state.h"
#include "asc/trace/trace.h"

namespace asc::acl {

void enqueue(Stream* s, std::function<aclError()> task) {
  {
    std::lock_guard<std::mutex> lock(s->mu);
    s->tasks.push_back(std::move(task));
    if (!s->worker.joinable()) s->worker = std::thread([s] { s->loop(); });
  }
  s->cv.notify_all();
}

Stream* resolveStream(const char* api, aclrtStream handle, aclError* err) {
  *err = requireContext(api);
  if (*err) return nullptr;
  State& st = state();
  if (!handle) {
    std::lock_guard<std::mutex> lock(st.mu);
    if (!threadContext()->default_stream)
      threadContext()->default_stream = std::make_unique<Stream>();
    return threadContext()->default_stream.get();
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

extern "C" {

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

}  // extern "C"
