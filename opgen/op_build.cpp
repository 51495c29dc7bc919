// op_build.cpp: op_build, which CANN's operator-project build runs on the built op_host to write
// the aclnn single-operator API of each operator (aclnn_<op>.h and its source) into a folder.
// Installed as <prefix>/tools/opbuild/op_build, where CANN keeps it; opgen's projects call it
// (cmake/func.cmake). Usage: op_build <operator library .so> <output folder>.
#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <vector>

#include "asc/opgen/opgen.h"
#include "asc/ophost/ophost.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: op_build <operator library .so> <output folder>\n");
    return 2;
  }
  const std::string lib = argv[1], dir = argv[2];
  ::mkdir(dir.c_str(), 0755);
  auto ops = asc::ophost::pluginOpDescs(lib);
  std::vector<std::string> written;
  asc::Status st = ops.isOk() ? asc::opgen::writeAclnnSources(*ops, dir, &written) : ops.status();
  if (!st.isOk()) {
    std::fprintf(stderr, "[ERROR] op_build: %s\n", st.message().c_str());
    return 1;
  }
  std::string names;
  for (const auto& w : written) names += (names.empty() ? "" : ", ") + w;
  std::printf("[INFO] op_build: wrote %s in %s\n", names.c_str(), dir.c_str());
  return 0;
}
