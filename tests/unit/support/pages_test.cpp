// pages_test.cpp: mmap-backed buffers (support/pages.h): zeroed, aligned, writable, and their
// pages faulted in without changing a byte.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "support/pages.h"

using namespace asc;

namespace {

// The kB of the process's mappings that cover [p, p + n) in transparent huge pages
// (AnonHugePages in /proc/self/smaps), or -1 when smaps cannot be read.
long hugeKbAt(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  if (!smaps) return -1;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  std::string line;
  bool in = false;
  while (std::getline(smaps, line)) {
    uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find(' ')) {
      in = a >= lo && a < hi;
      continue;
    }
    long kb = 0;
    if (in && std::sscanf(line.c_str(), "AnonHugePages: %ld kB", &kb) == 1) return kb;
  }
  return -1;
}

}  // namespace

TEST_CASE("page buffers are zeroed, page aligned and writable", "[support][pages]") {
  for (size_t bytes : {size_t{1}, size_t{4095}, size_t{4097}, size_t{100000}}) {
    PageBuffer b = pageBuffer(bytes);
    REQUIRE(b);
    CHECK(reinterpret_cast<uintptr_t>(b.get()) % 4096 == 0);
    for (size_t i = 0; i < bytes; ++i) REQUIRE(b.get()[i] == 0);
    std::memset(b.get(), 0x5a, bytes);
    CHECK(b.get()[bytes - 1] == 0x5a);
  }
  CHECK(allocPages(0) == nullptr);
  CHECK(allocPages(SIZE_MAX) == nullptr);  // refused, not wrapped
  freePages(nullptr, 10);                  // ignored
}

TEST_CASE("a buffer of whole huge pages gets them, from a 2 MiB boundary", "[support][pages]") {
  const size_t bytes = (size_t{6} << 20) + 123;
  PageBuffer b = pageBuffer(bytes);
  REQUIRE(b);
  // Faulting the pages in keeps the bytes.
  for (size_t i = 0; i < bytes; i += 4096) b.get()[i] = static_cast<uint8_t>(i >> 12);
  populatePages(b.get(), bytes);
  bool same = true;
  for (size_t i = 0; i < bytes; i += 4096)
    same = same && b.get()[i] == static_cast<uint8_t>(i >> 12);
  CHECK(same);
  // Huge pages unless the kernel's THP setting is "never" (or ASC_HUGE_PAGES=0 asked for none).
  std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(thp, mode);
  const char* env = std::getenv("ASC_HUGE_PAGES");
  if (mode.empty() || mode.find("[never]") != std::string::npos || (env && std::string(env) == "0"))
    WARN("huge pages are off here (THP setting or ASC_HUGE_PAGES=0): not checked");
  else {
    CHECK(reinterpret_cast<uintptr_t>(b.get()) % (size_t{2} << 20) == 0);
    CHECK(hugeKbAt(b.get()) >= 2048);
  }
}

TEST_CASE("prefaulting a range for reading leaves it as it was", "[support][pages]") {
  std::string s(100000, 'x');
  prefaultForReading(s.data() + 17, s.size() - 17);  // not page aligned
  prefaultForReading(nullptr, 5);
  CHECK(s == std::string(100000, 'x'));
}
