// tensor.cpp: Blob ownership helpers and element access for constant tensors.
#include "asc/ir/tensor.h"

#include <atomic>
#include <cassert>
#include <mutex>
#include <cstdint>
#include <cstring>

#include "asc/support/fp16.h"
#include "support/pages.h"

namespace asc::ir {

std::shared_ptr<const Blob> Blob::fromVector(std::vector<uint8_t> bytes) {
  auto owner = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
  return std::make_shared<Blob>(owner->data(), owner->size(), owner);
}

std::shared_ptr<const Blob> Blob::copyOf(const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  return fromVector(std::vector<uint8_t>(p, p + size));
}

struct Blob::Lazy {
  std::mutex mu;
  std::atomic<bool> ready{false};
  std::function<void(uint8_t*)> fill;
  const uint8_t* bytes = nullptr;
  std::vector<uint8_t> small;
  PageBuffer pages;  // a large one: whole pages, faulted in with one call (support/pages.h)
};

std::shared_ptr<const Blob> Blob::lazy(size_t size, std::function<void(uint8_t*)> make) {
  auto b = std::make_shared<Blob>(nullptr, size, nullptr);
  b->lazy_ = std::make_shared<Lazy>();
  b->lazy_->fill = std::move(make);
  return b;
}

std::shared_ptr<const Blob> Blob::unaligned(const void* data, size_t size,
                                            std::shared_ptr<const void> owner) {
  const auto* p = static_cast<const uint8_t*>(data);
  return lazy(size, [p, size, owner = std::move(owner)](uint8_t* out) {
    if (size) std::memcpy(out, p, size);
  });
}

const uint8_t* Blob::make() const {
  Lazy& l = *lazy_;
  if (l.ready.load(std::memory_order_acquire)) return l.bytes;
  std::lock_guard<std::mutex> lock(l.mu);
  if (l.ready.load(std::memory_order_relaxed)) return l.bytes;
  // A page fault per 4 KiB of a heap copy cost ResNet-50's 97 MB of misaligned weights 92 ms
  // against 3.5 for pages faulted in with one call before the copy.
  constexpr size_t kLarge = size_t(64) << 10;
  if (size_ >= kLarge) l.pages = pageBuffer(size_);
  if (l.pages) {
    populatePages(l.pages.get(), size_);
    l.bytes = l.pages.get();
  } else {
    l.small.assign(size_, 0);
    l.bytes = l.small.data();
  }
  l.fill(const_cast<uint8_t*>(l.bytes));
  l.fill = nullptr;
  l.ready.store(true, std::memory_order_release);
  return l.bytes;
}

void Blob::copyTo(void* dst) const {
  if (size_ == 0) return;
  if (lazy_ && !ready()) {
    Lazy& l = *lazy_;
    std::lock_guard<std::mutex> lock(l.mu);
    if (!l.ready.load(std::memory_order_relaxed)) {
      l.fill(static_cast<uint8_t*>(dst));
      return;
    }
  }
  std::memcpy(dst, data(), size_);
}

bool Blob::ready() const { return !lazy_ || lazy_->ready.load(std::memory_order_acquire); }

namespace {
// Element i of type T. Tensor data may sit at any byte offset (a dump file's tensors follow a
// header of any length), so the load goes through memcpy, never a misaligned pointer.
template <typename T>
T load(const uint8_t* p, int64_t i) {
  T v;
  std::memcpy(&v, p + static_cast<size_t>(i) * sizeof(T), sizeof(T));
  return v;
}
}  // namespace

int64_t Tensor::intAt(int64_t i) const {
  const uint8_t* p = data->data();
  switch (dtype) {
    case DType::I64:
      return load<int64_t>(p, i);
    case DType::I32:
      return load<int32_t>(p, i);
    case DType::I16:
      return load<int16_t>(p, i);
    case DType::I8:
    case DType::I4:
      return load<int8_t>(p, i);
    case DType::U8:
    case DType::U4:
      return p[i];
    case DType::U16:
      return load<uint16_t>(p, i);
    case DType::U32:
      return load<uint32_t>(p, i);
    case DType::U64:
      return static_cast<int64_t>(load<uint64_t>(p, i));
    case DType::Bool:
      return p[i] != 0;
    default: {
      // Saturating: a NaN or out-of-range float must not be cast (undefined behaviour).
      const double d = floatAt(i);
      if (!(d == d)) return 0;
      if (d >= 9223372036854775807.0) return INT64_MAX;
      if (d <= -9223372036854775808.0) return INT64_MIN;
      return static_cast<int64_t>(d);
    }
  }
}

double Tensor::floatAt(int64_t i) const {
  const uint8_t* p = data->data();
  switch (dtype) {
    case DType::F32:
      return load<float>(p, i);
    case DType::F64:
      return load<double>(p, i);
    case DType::F16:
      return halfToFloat(load<uint16_t>(p, i));
    case DType::BF16:
      return bf16ToFloat(load<uint16_t>(p, i));
    case DType::U64:
      return static_cast<double>(load<uint64_t>(p, i));
    case DType::F8E4M3FN:
    case DType::F8E4M3FNUZ:
    case DType::F8E5M2:
    case DType::F8E5M2FNUZ:
      return float8ToFloat(p[i], float8Kind(dtype));
    default:
      return static_cast<double>(intAt(i));
  }
}

std::vector<int64_t> Tensor::toInts() const {
  std::vector<int64_t> v(static_cast<size_t>(numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = intAt(static_cast<int64_t>(i));
  return v;
}

bool Tensor::operator==(const Tensor& o) const {
  if (dtype != o.dtype || shape != o.shape) return false;
  if (!data || !o.data) return data == o.data;
  // memcmp must not see the null pointer of an empty blob, even for 0 bytes
  return data->size() == o.data->size() &&
         (data->size() == 0 || std::memcmp(data->data(), o.data->data(), data->size()) == 0);
}

}  // namespace asc::ir
