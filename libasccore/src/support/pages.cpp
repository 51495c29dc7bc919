// pages.cpp: mmap-backed buffers with transparent huge pages (pages.h).
#include "support/pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

// Linux 5.14's prefault advice, for C libraries whose headers predate it.
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace asc {
namespace {

constexpr size_t kHuge = size_t{2} << 20;

size_t pageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

size_t roundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

bool hugePagesWanted() {
  static const bool wanted = [] {
    const char* e = std::getenv("ASC_HUGE_PAGES");
    return !(e && std::strcmp(e, "0") == 0);
  }();
  return wanted;
}

}  // namespace

void* allocPages(size_t bytes) {
  if (bytes == 0 || bytes > SIZE_MAX - 2 * kHuge) return nullptr;
  const size_t len = roundUp(bytes, pageSize());
  if (len < kHuge || !hugePagesWanted()) {
    void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
  }
  // Map a huge page more than asked, then give back the head and tail around the 2 MiB-aligned
  // range, so the buffer starts on a huge page boundary.
  const size_t over = len + kHuge;
  void* raw = mmap(nullptr, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = roundUp(start, kHuge);
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t end = aligned + len;
  if (start + over > end) munmap(reinterpret_cast<void*>(end), start + over - end);
  void* p = reinterpret_cast<void*>(aligned);
  madvise(p, len, MADV_HUGEPAGE);  // only advice: a kernel without THP gives small pages
  return p;
}

void freePages(void* p, size_t bytes) {
  if (p) munmap(p, roundUp(bytes, pageSize()));
}

PageBuffer reservedPages(size_t bytes) {
  if (bytes == 0 || bytes > SIZE_MAX - pageSize()) return PageBuffer(nullptr, PagesDeleter{0});
  void* p = mmap(nullptr, roundUp(bytes, pageSize()), PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return PageBuffer(p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p), PagesDeleter{bytes});
}

void populatePages(void* p, size_t bytes) {
  if (!p || bytes == 0) return;
  const size_t len = roundUp(bytes, pageSize());
  madvise(p, len, MADV_POPULATE_WRITE);  // refused before Linux 5.14: faults at first touch
}

void prefaultForReading(const void* p, size_t bytes) {
  if (!p || bytes == 0) return;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p) / pageSize() * pageSize();
  const uintptr_t e = reinterpret_cast<uintptr_t>(p) + bytes;
  madvise(reinterpret_cast<void*>(a), e - a, MADV_POPULATE_READ);
}

}  // namespace asc
