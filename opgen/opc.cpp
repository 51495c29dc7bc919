// opc.cpp: opc, the operator compiler a CANN-generated operator project's `binary` target runs
// once per dtype column (its cmake/util scripts write the calls). asc-tools' opc compiles the
// Ascend C kernel for the CPU twin (asc::opgen::buildCannKernel): <bin>.o, a shared object the
// aclnn runtime loads from the installed package, and <bin>.json. Installed as <prefix>/bin/opc.
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "asc/opgen/opgen.h"

int main(int argc, char** argv) {
  asc::opgen::CannKernelRequest r;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* key, std::string* out) {
      const std::string k = std::string("--") + key + "=";
      if (a.rfind(k, 0) != 0) return false;
      *out = a.substr(k.size());
      return true;
    };
    std::string ignored;
    if (value("main_func", &r.main_func) || value("input_param", &r.input_param) ||
        value("soc_version", &r.soc) || value("output", &r.output))
      continue;
    // Options about the NPU binary (implementation mode, key simplification, static or dynamic
    // shapes) mean nothing for the CPU kernel.
    if (value("impl_mode", &ignored) || value("simplified_key_mode", &ignored) ||
        value("op_mode", &ignored))
      continue;
    if (a.rfind("--", 0) == 0 || !r.impl_py.empty()) {
      std::fprintf(stderr, "[ERROR] opc: unknown argument %s\n", a.c_str());
      return 2;
    }
    r.impl_py = a;
  }
  if (r.impl_py.empty() || r.input_param.empty() || r.output.empty()) {
    std::fprintf(stderr,
                 "usage: opc <op implementation .py> --main_func=F --input_param=JSON "
                 "--soc_version=S --output=DIR\n");
    return 2;
  }
  char exe[PATH_MAX] = {};
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  std::string prefix = n > 0 ? std::string(exe, size_t(n)) : "";
  for (int up = 0; up < 2 && prefix.find('/') != std::string::npos; ++up)
    prefix.erase(prefix.rfind('/'));
  r.sdk_prefix = prefix;
  if (const char* src = std::getenv("BUILD_KERNEL_SRC")) r.kernel_src = src;
  char cwd[PATH_MAX] = {};
  r.cwd = getcwd(cwd, sizeof cwd) ? cwd : ".";
  std::string object;
  asc::Status st = asc::opgen::buildCannKernel(r, &object);
  if (!st.isOk()) {
    std::fprintf(stderr, "[ERROR] %s\n", st.message().c_str());
    return 1;
  }
  std::printf("[INFO] opc: compiled %s for the CPU\n", object.c_str());
  return 0;
}
