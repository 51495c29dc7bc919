// main.cpp: msame, the model executor (runs .om and .onnx models on the CPU runtime).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "msame.h"

extern "C" char** environ;

namespace {
const char* findEnv(const char* name) {
  const size_t n = std::strlen(name);
  for (char** e = environ; e && *e; ++e)
    if (std::strncmp(*e, name, n) == 0 && (*e)[n] == '=') return *e + n + 1;
  return nullptr;
}
}  // namespace

// The rounds of libgomp's idle spin (each one CPU pause) that last about kSpinMicros: a pause
// takes 22 ns on Zen 5 and 40-50 on recent Intel cores, so a fixed count spins twice as long on
// one as on the other. Timed here, the fewest nanoseconds over three runs of 256 pauses (a run
// the scheduler interrupts counts for nothing); 1000 rounds where it cannot be timed.
constexpr double kSpinMicros = 200;
const char* boundedSpinCount() {
  static char text[24] = "1000";
#if defined(__x86_64__) || defined(__i386__)
  double best = 0;
  for (int run = 0; run < 3; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 256; ++i) __builtin_ia32_pause();
    const double ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
        256;
    if (ns > 0 && (best == 0 || ns < best)) best = ns;
  }
  if (best > 0) {
    const long rounds = std::lround(std::clamp(kSpinMicros * 1000 / best, 1000.0, 100000.0));
    std::snprintf(text, sizeof text, "%ld", rounds);
  }
#endif
  return text;
}

// libgomp's idle threads spin for about 300,000 rounds before they sleep: alone on the cores that
// saves a wake-up per parallel region, but when other processes share the cores a spinning thread
// holds the core its teammate needs (two msame processes side by side: 26 times ONNX Runtime's
// latency on MobileNetV2; docs/runtime.md, "Threads on a busy machine"). libgomp reads
// GOMP_SPINCOUNT through getenv while it loads, before main. So msame's own getenv (the
// executable's symbol comes before libc's for every library) answers a bounded spin, about
// 200 us of it (boundedSpinCount), for GOMP_SPINCOUNT when the user set neither it nor
// OMP_WAIT_POLICY; every other name, and a value the user set, is read from the environment as
// libc's getenv reads it.
extern "C" char* getenv(const char* name) noexcept {
  const char* v = findEnv(name);
  if (!v && std::strcmp(name, "GOMP_SPINCOUNT") == 0 && !findEnv("OMP_WAIT_POLICY")) {
    static const char* const bounded = boundedSpinCount();
    return const_cast<char*>(bounded);
  }
  return const_cast<char*>(v);
}

int main(int argc, char** argv) { return asc::msame::main(argc, argv, std::cout); }
