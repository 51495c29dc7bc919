// securec_test.cpp: memcpy_s & co. (securec.h), which the samples' host programs call: results
// and CANN's return codes, and nothing written past destMax.
#include <catch2/catch.hpp>

#include <cstring>

#include "securec.h"

TEST_CASE("memcpy_s copies within destMax and clears the destination on a violation", "[ascendc]") {
  char dst[8];
  const char src[16] = "abcdefghijklmno";
  CHECK(memcpy_s(dst, sizeof(dst), src, 8) == EOK);
  CHECK(std::memcmp(dst, src, 8) == 0);
  char guard[12] = "###########";
  CHECK(memcpy_s(guard, 4, src, 5) == ERANGE_AND_RESET);
  CHECK(std::memcmp(guard, "\0\0\0\0#", 5) == 0);  // cleared up to destMax, nothing past it
  CHECK(memcpy_s(dst, sizeof(dst), nullptr, 1) == EINVAL_AND_RESET);
  CHECK(memcpy_s(nullptr, 8, src, 1) == EINVAL);
  CHECK(memcpy_s(dst, 0, src, 0) == ERANGE);
  CHECK(memcpy_s(dst + 1, 7, dst, 4) == EOVERLAP_AND_RESET);
  CHECK(memcpy_s(dst, sizeof(dst), src, 0) == EOK);
}

TEST_CASE("memset_s, memmove_s and the string functions", "[ascendc]") {
  char b[8] = "1234567";
  CHECK(memset_s(b, sizeof(b), 'x', 3) == EOK);
  CHECK(std::memcmp(b, "xxx4567", 8) == 0);
  CHECK(memmove_s(b + 1, 7, b, 4) == EOK);
  CHECK(std::memcmp(b, "xxxx467", 8) == 0);
  CHECK(memset_s(b, 4, 0, 5) == ERANGE_AND_RESET);
  char s[6];
  CHECK(strcpy_s(s, sizeof(s), "hello") == EOK);
  CHECK(std::strcmp(s, "hello") == 0);
  CHECK(strcpy_s(s, sizeof(s), "hello!") == ERANGE_AND_RESET);
  CHECK(s[0] == '\0');
  CHECK(strncpy_s(s, sizeof(s), "abcdef", 3) == EOK);
  CHECK(std::strcmp(s, "abc") == 0);
  CHECK(strcat_s(s, sizeof(s), "de") == EOK);
  CHECK(std::strcmp(s, "abcde") == 0);
  CHECK(strcat_s(s, sizeof(s), "f") == ERANGE_AND_RESET);
  CHECK(strncat_s(s, sizeof(s), "xyz", 2) == EOK);
  CHECK(std::strcmp(s, "xy") == 0);
}
