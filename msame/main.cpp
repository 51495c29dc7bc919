// main.cpp: msame, the model executor (runs .om and .onnx models on the CPU runtime).
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

// libgomp's idle threads spin for about 300,000 rounds before they sleep: alone on the cores that
// saves a wake-up per parallel region, but when other processes share the cores a spinning thread
// holds the core its teammate needs (two msame processes side by side: 26 times ONNX Runtime's
// latency on MobileNetV2; docs/runtime.md, "Threads on a busy machine"). libgomp reads
// GOMP_SPINCOUNT through getenv while it loads, before main. So msame's own getenv (the
// executable's symbol comes before libc's for every library) answers "1000", a bounded spin, for
// GOMP_SPINCOUNT when the user set neither it nor OMP_WAIT_POLICY; every other name, and a value
// the user set, is read from the environment as libc's getenv reads it.
extern "C" char* getenv(const char* name) noexcept {
  const char* v = findEnv(name);
  if (!v && std::strcmp(name, "GOMP_SPINCOUNT") == 0 && !findEnv("OMP_WAIT_POLICY"))
    return const_cast<char*>("1000");
  return const_cast<char*>(v);
}

int main(int argc, char** argv) { return asc::msame::main(argc, argv, std::cout); }
