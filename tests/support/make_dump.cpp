// make_dump.cpp: a test helper that writes an Ascend dump file with tensorio::writeDumpFile, so
// CLI tests build dump folders from .npy files.
//   asc_make_dump OUT_FILE OP_NAME [--original=NAME] OUTPUT0.npy [OUTPUT1.npy ...]
#include <cstdio>
#include <string>

#include "asc/tensorio/dump_file.h"
#include "asc/tensorio/tensor_file.h"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: asc_make_dump OUT OP_NAME [--original=NAME] OUT0.npy ...\n");
    return 2;
  }
  asc::tensorio::DumpData d;
  d.op_name = argv[2];
  d.dump_time = 1;
  std::string original;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--original=", 0) == 0) {
      original = a.substr(11);
      continue;
    }
    auto t = asc::tensorio::readTensorFile(a);
    if (!t) {
      std::fprintf(stderr, "asc_make_dump: %s\n", t.status().toString().c_str());
      return 2;
    }
    asc::tensorio::DumpTensor o;
    o.tensor = t->tensor;
    o.original_op_name = original;
    o.original_output_index = static_cast<uint32_t>(d.outputs.size());
    d.outputs.push_back(o);
  }
  auto st = asc::tensorio::writeDumpFile(argv[1], d);
  if (!st) {
    std::fprintf(stderr, "asc_make_dump: %s\n", st.toString().c_str());
    return 2;
  }
  return 0;
}
