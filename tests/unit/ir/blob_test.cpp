// blob_test.cpp: constant bytes that are made only when read (ir::Blob::lazy and
// ir::Blob::unaligned), and copyTo, which streams them without keeping a copy.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "asc/ir/tensor.h"

using namespace asc;

namespace {

// `n` floats at an address one byte past a float boundary, as a protobuf field may lie.
struct Misaligned {
  explicit Misaligned(size_t n) : storage(std::make_shared<std::vector<uint8_t>>(n * 4 + 8)) {
    p = storage->data() + (4 - reinterpret_cast<uintptr_t>(storage->data()) % 4) % 4 + 1;
    for (size_t i = 0; i < n; ++i) {
      const float f = 0.5f * float(i) - 3.f;
      std::memcpy(p + 4 * i, &f, 4);
    }
  }
  std::shared_ptr<std::vector<uint8_t>> storage;
  uint8_t* p = nullptr;
};

}  // namespace

TEST_CASE("an unaligned blob gives an aligned copy when read, and streams from where it lies",
          "[ir][blob]") {
  for (size_t n : {size_t(3), size_t(40000)}) {  // a heap copy and a page-backed one
    INFO(n);
    Misaligned m(n);
    auto b = ir::Blob::unaligned(m.p, n * 4, m.storage);
    CHECK(b->size() == n * 4);
    CHECK_FALSE(b->ready());
    // copyTo before the copy exists: the bytes as they lie, and still no copy kept.
    std::vector<uint8_t> streamed(n * 4);
    b->copyTo(streamed.data());
    CHECK(std::memcmp(streamed.data(), m.p, n * 4) == 0);
    CHECK_FALSE(b->ready());
    // data(): a copy on a float boundary (kernels read it as float*), made once.
    const float* f = b->as<float>();
    CHECK(reinterpret_cast<uintptr_t>(f) % alignof(float) == 0);
    CHECK(b->ready());
    CHECK(b->data() == reinterpret_cast<const uint8_t*>(f));
    for (size_t i = 0; i < n; i += 97) CHECK(f[i] == 0.5f * float(i) - 3.f);
    // copyTo once it exists: the same bytes.
    std::vector<uint8_t> again(n * 4);
    b->copyTo(again.data());
    CHECK(again == streamed);
  }
}

TEST_CASE("a lazy blob is made once, whoever asks first, and copyTo keeps nothing", "[ir][blob]") {
  std::atomic<int> fills{0};
  auto b = ir::Blob::lazy(16, [&](uint8_t* out) {
    ++fills;
    for (int i = 0; i < 16; ++i) out[i] = static_cast<uint8_t>(i * 3);
  });
  uint8_t a[16] = {};
  b->copyTo(a);
  b->copyTo(a);
  CHECK(fills == 2);  // each streamed copy is made afresh: none is kept
  CHECK_FALSE(b->ready());
  CHECK(a[5] == 15);
  std::vector<std::thread> readers;
  std::atomic<const uint8_t*> seen[4] = {};
  for (int t = 0; t < 4; ++t) readers.emplace_back([&, t] { seen[t] = b->data(); });
  for (auto& t : readers) t.join();
  CHECK(fills == 3);  // data() made it once for all four
  for (auto& s : seen) CHECK(s.load() == b->data());
  CHECK(std::memcmp(b->data(), a, 16) == 0);
  b->copyTo(a);
  CHECK(fills == 3);
  // An empty one: nothing is filled or written.
  auto e = ir::Blob::lazy(0, [&](uint8_t*) { ++fills; });
  e->copyTo(nullptr);
  CHECK(fills == 3);
}
