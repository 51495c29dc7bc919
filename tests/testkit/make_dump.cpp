// make_dump.cpp: a test helper that writes an Ascend dump file with tensorio::writeDumpFile, so
// CLI tests build dump folders from .npy files.
//   asc_make_dump OUT_FILE OP_NAME [options] OUTPUT0.npy [OUTPUT1.npy ...]
// Options apply to the tensors after them:
//   --original=NAME          OriginalOp name of the outputs
//   --input=X.npy            adds an input (inputs and outputs are kept in their own order)
//   --format=F               store the next tensors in F: ND (default), NC1HWC0, FRACTAL_Z or
//                            FRACTAL_NZ (packed by tests/testkit/layout_pack.h; C0 = 32 for
//                            int8, else 16), with the .npy's shape as original_shape
//   --origin_shape=a,b,...   record this original_shape instead (to write inconsistent dumps)
//   --original_format=F      OriginalOp format of the outputs (NCHW, NHWC, HWCN)
#include <cstdio>
#include <string>

#include "asc/tensorio/dump_file.h"
#include "asc/tensorio/layout_convert.h"
#include "asc/tensorio/tensor_file.h"
#include "layout_pack.h"

namespace {

bool formatNumber(const std::string& name, int* out) {
  using namespace asc::tensorio;
  const std::pair<const char*, int> known[] = {
      {"NCHW", kFormatNCHW},           {"NHWC", kFormatNHWC},       {"ND", kFormatND},
      {"HWCN", kFormatHWCN},           {"NC1HWC0", kFormatNC1HWC0}, {"FRACTAL_Z", kFormatFractalZ},
      {"FRACTAL_NZ", kFormatFractalNZ}};
  for (const auto& [n, v] : known)
    if (name == n) {
      *out = v;
      return true;
    }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: asc_make_dump OUT OP_NAME [--original=NAME] [--input=X.npy] "
                 "[--format=F] [--origin_shape=a,b] [--original_format=F] OUT0.npy ...\n");
    return 2;
  }
  asc::tensorio::DumpData d;
  d.op_name = argv[2];
  d.dump_time = 1;
  std::string original;
  int format = asc::tensorio::kFormatND, original_format = 0;
  bool origin_override = false;
  asc::ir::Shape origin_shape;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--original=", 0) == 0) {
      original = a.substr(11);
      continue;
    }
    if (a.rfind("--format=", 0) == 0 || a.rfind("--original_format=", 0) == 0) {
      const bool orig = a[2] == 'o';
      if (!formatNumber(a.substr(a.find('=') + 1), orig ? &original_format : &format)) {
        std::fprintf(stderr, "asc_make_dump: unknown format in '%s'\n", a.c_str());
        return 2;
      }
      continue;
    }
    if (a.rfind("--origin_shape=", 0) == 0) {
      origin_override = true;
      origin_shape.clear();
      std::string s = a.substr(15);
      for (size_t p = 0; p < s.size();) {
        size_t e = s.find(',', p);
        origin_shape.push_back(std::stoll(s.substr(p, e == std::string::npos ? e : e - p)));
        p = e == std::string::npos ? s.size() : e + 1;
      }
      continue;
    }
    const bool is_input = a.rfind("--input=", 0) == 0;
    if (is_input) a = a.substr(8);
    auto t = asc::tensorio::readTensorFile(a);
    if (!t) {
      std::fprintf(stderr, "asc_make_dump: %s\n", t.status().toString().c_str());
      return 2;
    }
    const size_t rank = t->tensor.shape.size();
    if (((format == asc::tensorio::kFormatNC1HWC0 || format == asc::tensorio::kFormatFractalZ) &&
         rank != 4) ||
        (format == asc::tensorio::kFormatFractalNZ && rank == 0)) {
      std::fprintf(stderr, "asc_make_dump: '%s' has %zu dims, too few or many for --format\n",
                   a.c_str(), rank);
      return 2;
    }
    asc::tensorio::DumpTensor o;
    o.tensor = t->tensor;
    o.format = format;
    if (format != asc::tensorio::kFormatND) o.original_shape = t->tensor.shape;
    const int64_t c0 = t->tensor.dtype == asc::ir::DType::I8 ? 32 : 16;
    if (format == asc::tensorio::kFormatNC1HWC0)
      o.tensor = asc::test::packNC1HWC0(t->tensor, c0);
    else if (format == asc::tensorio::kFormatFractalZ)
      o.tensor = asc::test::packFractalZ(t->tensor, c0);
    else if (format == asc::tensorio::kFormatFractalNZ)
      o.tensor = asc::test::packFractalNZ(t->tensor, c0);
    if (origin_override) o.original_shape = origin_shape;
    if (is_input) {
      d.inputs.push_back(o);
      continue;
    }
    o.original_op_name = original;
    o.original_output_index = static_cast<uint32_t>(d.outputs.size());
    o.original_format = original_format;
    d.outputs.push_back(o);
  }
  auto st = asc::tensorio::writeDumpFile(argv[1], d);
  if (!st) {
    std::fprintf(stderr, "asc_make_dump: %s\n", st.toString().c_str());
    return 2;
  }
  return 0;
}
