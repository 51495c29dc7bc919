// fuzz_om: the offline-model reader (om/om_file.h) and the runtime's load (runtime/session.h).
// The input is an .om file. Its integrity record is checked once as given (the checker reads the
// record and hashes what the table describes); the readers then run with the check skipped
// (om::Verify::Skip), so the fuzzer gets past it into the partition table and the ModelDef. A
// file with the older record ("ASCK") gets its CRC32 rewritten to match the mutated bytes, so
// that path is reached with the check on.
// Runs readOmSummary (--mode=6), omToJson (--mode=1), loadOm and Session::load, and runs the
// loaded model once on zero inputs when its arena is small.
#include <zlib.h>

#include <cstring>
#include <vector>

#include "asc/om/om_file.h"
#include "asc/runtime/session.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace asc;
  fuzz::quietLogs();
  std::vector<uint8_t> bytes(data, data + size);
  if (size >= 256 && std::memcmp(bytes.data() + 12, "ASCK", 4) == 0) {
    uint32_t crc = static_cast<uint32_t>(
        crc32_z(crc32(0L, Z_NULL, 0), bytes.data() + 256, bytes.size() - 256));
    std::memcpy(bytes.data() + 16, &crc, 4);
  }
  const std::string path = fuzz::writeTemp("model.om", bytes.data(), bytes.size());

  auto checked = om::readOmSummary(path);
  fuzz::report("readOmSummary (checked)", checked.isOk() ? Status::ok() : checked.status());
  auto summary = om::readOmSummary(path, om::Verify::Skip);
  fuzz::report("readOmSummary", summary.isOk() ? Status::ok() : summary.status());
  auto json = om::omToJson(path, om::Verify::Skip);
  fuzz::report("omToJson", json.isOk() ? Status::ok() : json.status());
  auto model = om::loadOm(path, om::Verify::Skip);
  fuzz::report("loadOm", model.isOk() ? Status::ok() : model.status());
  if (model.isOk()) {
    Status v = ir::verify(model->graph);
    fuzz::report("verify", v);
    ASC_FUZZ_CHECK(v.isOk());  // loadOm promises a valid graph or an error
  }
  if (!summary.isOk()) return 0;

  runtime::SessionOptions opts;
  opts.threads = 1;
  opts.verify = om::Verify::Skip;
  auto session = runtime::Session::load(path, opts);
  fuzz::report("Session::load", session.isOk() ? Status::ok() : session.status());
  if (session.isOk() && (*session)->arenaBytes() <= (size_t(16) << 20)) {
    (*session)->zeroInputs();
    Status st = (*session)->run();
    fuzz::report("run", st);
  }
  return 0;
}
