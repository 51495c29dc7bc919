// pages.h: large buffers straight from the kernel's page allocator (mmap), in transparent huge
// pages where they span whole 2 MiB pages. Each page a process touches first costs a fault
// (a few microseconds on bare metal, several times that in some virtual machines); a huge page
// costs one fault for 512 small ones, and one TLB entry. Used for the runtime's arena,
// scratchpads and reordered weights, which are written whole at load.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace asc {

/// `bytes` zeroed bytes at a page boundary (at a 2 MiB one, with MADV_HUGEPAGE, when the buffer
/// holds at least one whole huge page), or nullptr when the memory cannot be mapped.
/// ASC_HUGE_PAGES=0 in the environment asks for small pages only.
void* allocPages(size_t bytes);
/// Frees what allocPages(bytes) returned (nullptr is ignored).
void freePages(void* p, size_t bytes);
/// Faults in the pages of [p, p + bytes) (from allocPages) for writing now rather than at first
/// touch; the bytes are unchanged (MADV_POPULATE_WRITE, Linux 5.14; older kernels refuse it,
/// and the pages fault in at first touch as before).
void populatePages(void* p, size_t bytes);

/// Page tables for the pages of [p, p + bytes) (any mapping, p need not be page aligned) now,
/// for reading, rather than at first touch (MADV_POPULATE_READ; refused before Linux 5.14).
void prefaultForReading(const void* p, size_t bytes);

struct PagesDeleter {
  size_t bytes = 0;
  void operator()(uint8_t* p) const { freePages(p, bytes); }
};
using PageBuffer = std::unique_ptr<uint8_t, PagesDeleter>;
/// allocPages in an owner; empty when the memory cannot be mapped.
inline PageBuffer pageBuffer(size_t bytes) {
  return PageBuffer(static_cast<uint8_t*>(allocPages(bytes)), PagesDeleter{bytes});
}
/// `bytes` of address space and no memory: any access to it faults (PROT_NONE). Addresses that
/// stand for buffers never made; empty when the range cannot be mapped.
PageBuffer reservedPages(size_t bytes);

}  // namespace asc
