// securec.h: the bounds-checked memory and string functions of CANN's C library (c_sec) that
// host programs of Ascend C samples call (memcpy_s to copy tiling data, memset_s, ...), with
// CANN's names, arguments and return codes. tikicpulib.h includes it, as the sample programs
// expect; libasccore holds them. On a violation the destination is cleared (as far as destMax
// allows) and an error code returned, never written past.
#ifndef ASC_ASCENDC_SECUREC_H
#define ASC_ASCENDC_SECUREC_H

#include <stddef.h>

#ifndef EOK
#define EOK 0
#endif
typedef int errno_t;
#define EINVAL_AND_RESET (22 | 128)
#define ERANGE_AND_RESET (34 | 128)
#define EOVERLAP_AND_RESET (54 | 128)
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL

#ifdef __cplusplus
extern "C" {
#endif

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count);
errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count);
errno_t memset_s(void* dest, size_t destMax, int c, size_t count);
errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc);
errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc);
errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count);

#ifdef __cplusplus
}
#endif

#endif  // ASC_ASCENDC_SECUREC_H
