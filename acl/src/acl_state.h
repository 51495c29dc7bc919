// acl_state.h: the process-wide state behind asc-tools' AscendCL (runtime.cpp owns it): the
// device's contexts, the streams, and each thread's current context and recent error. Streams
// are ordered task queues run by a thread of their own (stream.cpp).
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "acl_internal.h"

namespace asc::acl {

/// This thread's recent error message (aclGetRecentErrMsg).
const std::string& recentError();

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
      std::string msg = e == ACL_SUCCESS ? std::string() : recentError();
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
};
/// The one state (never destroyed: handles may be used from atexit handlers).
State& state();
/// This thread's current context (nullptr: none set).
Context*& threadContext();

}  // namespace asc::acl
