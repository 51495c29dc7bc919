// features.cpp: see features.h.
#include "cpu/features.h"

#include <cpuid.h>

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdlib>
#include <cstring>

namespace asc::cpu {

bool switchedOn(const char* name) {
  const char* e = std::getenv(name);
  return !(e && std::strcmp(e, "0") == 0);
}

int switchSetting(const char* name) {
  const char* e = std::getenv(name);
  if (e && std::strcmp(e, "0") == 0) return 0;
  if (e && std::strcmp(e, "1") == 0) return 1;
  return -1;
}

bool hasAvx512() { return __builtin_cpu_supports("avx512f"); }

bool avx512Isa() {
  static const bool on = [] {
    const auto isa = dnnl::get_effective_cpu_isa();
    return isa >= dnnl::cpu_isa::avx512_core && isa != dnnl::cpu_isa::all;
  }();
  return on;
}

bool avx512HalfRate() {
  static const bool half = [] {
    if (!hasAvx512() || !__builtin_cpu_is("amd")) return false;
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    const unsigned base = (a >> 8) & 0xf, ext = (a >> 20) & 0xff;
    return base + (base == 0xf ? ext : 0) == 0x19;
  }();
  return half;
}

bool underHypervisor() {
  static const bool vm = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 31)) != 0;
  }();
  return vm;
}

bool hasAvx2Fma() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

}  // namespace asc::cpu
