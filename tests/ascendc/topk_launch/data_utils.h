// data_utils.h: reading and writing the binary files gen_data.py and verify_result.py use.
#ifndef DATA_UTILS_H
#define DATA_UTILS_H
#include <cstdio>
#include <fstream>
#include <string>

inline bool ReadFile(const std::string& path, size_t size, void* buf) {
  std::ifstream f(path, std::ios::binary);
  if (!f.read(static_cast<char*>(buf), static_cast<std::streamsize>(size))) {
    std::fprintf(stderr, "[ERROR] cannot read %zu bytes from %s\n", size, path.c_str());
    return false;
  }
  return true;
}

inline bool WriteFile(const std::string& path, const void* buf, size_t size) {
  std::ofstream f(path, std::ios::binary);
  return static_cast<bool>(
      f.write(static_cast<const char*>(buf), static_cast<std::streamsize>(size)));
}
#endif
