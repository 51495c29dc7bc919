// weight_stream.h: the OM writer's weight bytes, made on a second thread in file order while the
// writer writes and hashes them (private to om; writer.cpp).
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "asc/ir/graph.h"
#include "asc/support/status.h"
#include "support/pages.h"

namespace asc::om {

// A weight's bytes into `out` (a packed copy made now, or plain data copied from where it lies).
inline Status makeBytes(const ir::Value& v, const ir::Blob& b, uint8_t* out) {
  try {
    b.copyTo(out);
  } catch (const std::exception& e) {
    return Status::error(ErrorCode::Internal, "cannot make the bytes of weight '{}': {}", v.name,
                         e.what());
  }
  return Status::ok();
}
inline size_t largestToMake(const std::vector<const ir::Blob*>& blobs) {
  size_t most = 0;
  for (const ir::Blob* b : blobs)
    if (!b->ready()) most = std::max(most, b->size());
  return most;
}

// The weights' bytes, made on a second thread in file order while write() writes (and hashes)
// them on the first (the page-cache copies alone took half of atc's time on ResNet-50).
// A weight whose Blob has its bytes only on request (ir::Blob::copyTo: a packed copy atc makes
// now, plain data misaligned in its ONNX file) is made into one of three buffers in turn,
// reused once written, rather than each into memory of its own: every new page costs a fault
// (on a 2-core VM, ResNet-50's 190 MB of such copies took ~150 ms of page clearing).
// Without a thread to be had, next() makes each weight itself.
class WeightStream {
 public:
  struct Item {
    const ir::Value* value;
    const ir::Blob* blob;
    size_t size;
    const uint8_t* bytes = nullptr;
  };

  Status start(std::vector<Item> items) {
    items_ = std::move(items);
    std::vector<const ir::Blob*> blobs;
    for (const Item& it : items_) blobs.push_back(it.blob);
    if (const size_t most = largestToMake(blobs))
      for (auto& b : buffers_) {
        b.bytes = pageBuffer(most);
        if (!b.bytes)
          return Status::error(ErrorCode::MemoryExceeded,
                               "cannot allocate {} bytes to write the weights through", most);
        populatePages(b.bytes.get(), most);
      }
    try {
      thread_ = std::thread([this] { loop(); });
    } catch (const std::system_error&) {
    }
    return Status::ok();
  }
  ~WeightStream() { stop(); }

  // Item i's bytes, once made (items are asked for in order, each once).
  Result<const Item*> next(size_t i) {
    if (!thread_.joinable()) {  // made here
      ASC_RETURN_IF_ERROR(make(i));
      written_ = i + 1;
      return &items_[i];
    }
    std::unique_lock<std::mutex> lock(mu_);
    written_ = i;  // the item before is out: its buffer may be made into again
    cv_.notify_all();
    cv_.wait(lock, [&] { return made_ > i || !status_.isOk(); });
    if (!status_.isOk()) return status_;
    return &items_[i];
  }
  // After the last next(); the items stay until the stream goes.
  Status finish() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      written_ = items_.size();
      cv_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
    return status_;
  }
  const std::vector<Item>& items() const { return items_; }

 private:
  struct Buffer {
    PageBuffer bytes;
    size_t user = SIZE_MAX;  // the item last made into it
  };
  Status make(size_t i) {
    Item& it = items_[i];
    if (it.blob->ready()) {
      it.bytes = it.blob->data();
    } else {
      Buffer& b = buffers_[turn_++ % kBuffers];
      ASC_RETURN_IF_ERROR(makeBytes(*it.value, *it.blob, b.bytes.get()));
      b.user = i;
      it.bytes = b.bytes.get();
    }
    return Status::ok();
  }
  // Makes the items in order, each into a buffer once write() is done with it.
  void loop() {
    for (size_t i = 0; i < items_.size(); ++i) {
      const Buffer& b = buffers_[turn_ % kBuffers];
      const bool needs = !items_[i].blob->ready() && b.user != SIZE_MAX;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stopping_ || !needs || written_ > b.user; });
        if (stopping_) return;
      }
      Status st = make(i);
      std::lock_guard<std::mutex> lock(mu_);
      if (!st.isOk()) {
        status_ = st;
        cv_.notify_all();
        return;
      }
      made_ = i + 1;
      cv_.notify_all();
    }
  }
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
      cv_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
  }

  std::vector<Item> items_;
  static constexpr size_t kBuffers = 3;
  Buffer buffers_[kBuffers];
  size_t turn_ = 0;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  size_t made_ = 0, written_ = 0;
  bool stopping_ = false;
  Status status_ = Status::ok();
};

}  // namespace asc::om
