// features.cpp: see features.h.
#include "cpu/features.h"

#include <cstdlib>
#include <cstring>

namespace asc::cpu {

bool switchedOn(const char* name) {
  const char* e = std::getenv(name);
  return !(e && std::strcmp(e, "0") == 0);
}

bool hasAvx512() { return __builtin_cpu_supports("avx512f"); }

bool hasAvx2Fma() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

}  // namespace asc::cpu
