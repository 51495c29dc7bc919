// onnx_testdata.h: reading the official ONNX backend node tests (Debian libonnx-testdata).
#pragma once

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace asc::test {

inline const char* kOnnxNodeTestDir = "/usr/share/libonnx-testdata/data/node";

/// The entries of a folder (no dot files), sorted; empty when it does not exist.
inline std::vector<std::string> listDirs(const std::string& root) {
  std::vector<std::string> out;
  DIR* d = opendir(root.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d))
    if (e->d_name[0] != '.') out.push_back(e->d_name);
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

/// A whole file as bytes ("" when unreadable).
inline std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace asc::test
