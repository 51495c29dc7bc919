// securec.cpp: see ascendc/securec.h. Return codes as CANN's library gives them: EOK, EINVAL
// (22) for a null destination, EINVAL_AND_RESET for a null source, ERANGE (34) for a zero or huge
// destMax, ERANGE_AND_RESET when the data does not fit, EOVERLAP_AND_RESET for overlapping
// copies; "_AND_RESET" means the destination was cleared.
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "asc/asc.h"
#include "securec.h"

namespace {

bool badMax(size_t destMax) { return destMax == 0 || destMax > SECUREC_MEM_MAX_LEN; }

bool overlap(const void* a, size_t na, const void* b, size_t nb) {
  const auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + nb && y < x + na;
}

errno_t copyString(char* dest, size_t destMax, const char* src, size_t count, size_t start) {
  if (!dest || badMax(destMax)) return !dest ? EINVAL : ERANGE;
  if (!src) {
    dest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  const size_t n = strnlen(src, count);
  if (start >= destMax || n >= destMax - start) {
    dest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  if (overlap(dest, destMax, src, n + 1)) {
    dest[0] = '\0';
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest + start, src, n);
  dest[start + n] = '\0';
  return EOK;
}

/// What memcpy_s and memmove_s refuse (EOK when the copy may go ahead); a refusal that has a
/// destination clears it.
errno_t checkCopy(void* dest, size_t destMax, const void* src, size_t count) {
  if (!dest || badMax(destMax)) return !dest ? EINVAL : ERANGE;
  if (!src || count > destMax) {
    std::memset(dest, 0, destMax);
    return !src ? EINVAL_AND_RESET : ERANGE_AND_RESET;
  }
  return EOK;
}

}  // namespace

extern "C" {

ASC_API errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (errno_t e = checkCopy(dest, destMax, src, count)) return e;
  if (count == 0 || dest == src) return EOK;
  if (overlap(dest, count, src, count)) {
    std::memset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest, src, count);
  return EOK;
}

ASC_API errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (errno_t e = checkCopy(dest, destMax, src, count)) return e;
  if (count > 0) std::memmove(dest, src, count);
  return EOK;
}

ASC_API errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (!dest || badMax(destMax)) return !dest ? EINVAL : ERANGE;
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  std::memset(dest, c, count);
  return EOK;
}

ASC_API errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) {
  return copyString(strDest, destMax, strSrc, SIZE_MAX, 0);
}

ASC_API errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  return copyString(strDest, destMax, strSrc, count, 0);
}

ASC_API errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) {
  if (!strDest || badMax(destMax)) return !strDest ? EINVAL : ERANGE;
  return copyString(strDest, destMax, strSrc, SIZE_MAX, strnlen(strDest, destMax));
}

ASC_API errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  if (!strDest || badMax(destMax)) return !strDest ? EINVAL : ERANGE;
  return copyString(strDest, destMax, strSrc, count, strnlen(strDest, destMax));
}

}  // extern "C"
