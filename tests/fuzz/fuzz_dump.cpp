// fuzz_dump: Ascend dump files (tensorio/dump_file.h). readDumpFile on the input; a dump that
// reads must write back (writeDumpFile) and read again to the same ops, shapes and bytes.
#include <cstring>

#include "asc/tensorio/dump_file.h"
#include "fuzz_util.h"

namespace {
bool sameTensors(const std::vector<asc::tensorio::DumpTensor>& a,
                 const std::vector<asc::tensorio::DumpTensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const auto& x = a[i].tensor;
    const auto& y = b[i].tensor;
    if (x.shape != y.shape || x.dtype != y.dtype) return false;
    const size_t nx = x.data ? x.data->size() : 0, ny = y.data ? y.data->size() : 0;
    if (nx != ny || (nx && std::memcmp(x.data->data(), y.data->data(), nx) != 0)) return false;
  }
  return true;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace asc;
  fuzz::quietLogs();
  const std::string path = fuzz::writeTemp("Conv2D.conv1.3.1.1700000000000000", data, size);
  auto d = tensorio::readDumpFile(path);
  fuzz::report("readDumpFile", d.isOk() ? Status::ok() : d.status());
  if (!d.isOk()) return 0;

  const std::string again = fuzz::tempDir() + "/Conv2D.again.3.1.1700000000000000";
  Status w = tensorio::writeDumpFile(again, *d);
  fuzz::report("writeDumpFile", w);
  if (!w.isOk()) {
    // Only a dtype with no asc-tools equivalent may stop a dump that read from writing back.
    bool undefined = false;
    for (const auto* v : {&d->inputs, &d->outputs})
      for (const auto& t : *v) undefined |= t.tensor.dtype == ir::DType::Undefined;
    ASC_FUZZ_CHECK(undefined);
    return 0;
  }
  auto r = tensorio::readDumpFile(again);
  fuzz::report("readDumpFile(written)", r.isOk() ? Status::ok() : r.status());
  ASC_FUZZ_CHECK(r.isOk());
  ASC_FUZZ_CHECK(r->op_name == d->op_name);
  ASC_FUZZ_CHECK(sameTensors(r->inputs, d->inputs));
  ASC_FUZZ_CHECK(sameTensors(r->outputs, d->outputs));
  return 0;
}
