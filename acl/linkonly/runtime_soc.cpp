// runtime_soc.cpp: libruntime.so's rtGetSocVersion, the device's chip as CANN's runtime names
// it, which the samples' scripts ask through ctypes before they compile for it: the chip
// aclrtGetSocName names. 0 is RT_ERROR_NONE; 107000 (ACL_ERROR_RT_PARAM_INVALID) for a null
// or short buffer.
#include <cstdint>
#include <cstring>

#include "acl/acl.h"

extern "C" __attribute__((visibility("default"))) int rtGetSocVersion(char* version,
                                                                      uint32_t maxLen) {
  const char* name = aclrtGetSocName();
  const size_t n = std::strlen(name);
  if (!version || maxLen <= n) return 107000;
  std::memcpy(version, name, n + 1);
  return 0;
}
