// fuzz_util.h: what every fuzz target shares: a private temporary folder for the parsers that
// take paths, writing the fuzzer's bytes into it, and quiet logging.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "asc/support/log.h"

namespace asc::fuzz {

/// The process's own folder under $TMPDIR (or /tmp), created on first use, removed at exit.
inline const std::string& tempDir() {
  static const std::string dir = [] {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/asc-fuzz-XXXXXX";
    if (!mkdtemp(tmpl.data())) {
      std::perror("asc-fuzz: mkdtemp");
      std::abort();
    }
    static std::string cleanup;
    cleanup = tmpl;
    std::atexit([] { std::system(("rm -rf '" + cleanup + "'").c_str()); });
    return tmpl;
  }();
  return dir;
}

/// Writes `size` bytes to tempDir()/name and returns the path (aborts if it cannot: that is
/// the harness failing, not the library).
inline std::string writeTemp(const std::string& name, const uint8_t* data, size_t size) {
  std::string path = tempDir() + "/" + name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || (size && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0) {
    std::perror(("asc-fuzz: writing " + path).c_str());
    std::abort();
  }
  return path;
}

/// Logging off: the parsers' error lines would only slow the fuzzer down. ASC_FUZZ_LOG=1 keeps
/// them (for reading a reproducer's error).
inline void quietLogs() {
  static const bool once = [] {
    if (!std::getenv("ASC_FUZZ_LOG")) log::setLevel(log::Level::Null);
    return true;
  }();
  (void)once;
}

/// A check inside a target that the library broke its own contract (e.g. a round trip that
/// does not give back what was written): reported to libFuzzer as a crash.
#define ASC_FUZZ_CHECK(cond)                                                             \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                      \
    }                                                                                    \
  } while (0)

/// When ASC_FUZZ_LOG is set, prints the status a reproducer ends with (to read its message).
template <typename S>
void report(const char* what, const S& st) {
  if (std::getenv("ASC_FUZZ_LOG") && !st.isOk())
    std::fprintf(stderr, "%s: %s\n", what, st.toString().c_str());
}

}  // namespace asc::fuzz
