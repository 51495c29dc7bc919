// unwritten.cpp: the check that every element of a kernel's outputs was written (msame
// --check_unwritten for operator plugins, ASC_CHECK_UNWRITTEN=1 for aclnn calls): each output
// starts as a pattern no kernel computes by chance, and what still holds it afterwards was never
// written.
#include <cstring>

#include "ophost/ophost_detail.h"

namespace asc::ophost::detail {

namespace {
uint64_t pattern(size_t elem) {
  switch (elem) {
    case 1:
      return 0xA5;
    case 2:
      return 0x7E5A;  // fp16 NaN
    case 4:
      return 0x7FBADBADu;  // fp32 NaN
    default:
      return 0x7FFBADBADBADBAD5ull;  // fp64 NaN
  }
}
}  // namespace

void fillUnwritten(uint8_t* data, int64_t numel, size_t elem) {
  const uint64_t p = pattern(elem);
  for (int64_t k = 0; k < numel; ++k) std::memcpy(data + k * elem, &p, elem);
}

Status checkUnwritten(const uint8_t* data, int64_t numel, size_t elem, const std::string& where,
                      const std::string& kernel, size_t output) {
  const uint64_t p = pattern(elem);
  int64_t first = -1, last = -1, count = 0;
  for (int64_t k = 0; k < numel; ++k)
    if (std::memcmp(data + k * elem, &p, elem) == 0) {
      if (first < 0) first = k;
      last = k;
      ++count;
    }
  if (count == 0) return Status::ok();
  return Status::error(ErrorCode::KernelCheckFailed,
                       "{}: kernel '{}' left {} of the {} elements of output {} unwritten (the "
                       "first at {}, the last at {}); an NPU would leave whatever the memory held "
                       "there. Check the kernel's tiling (block and tile counts, the tail) and its "
                       "TILING_KEY_IS branches",
                       where, kernel, count, numel, output, first, last);
}

}  // namespace asc::ophost::detail
