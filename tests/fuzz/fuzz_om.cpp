// fuzz_om: the offline-model reader (om/om_file.h) and the runtime's load (runtime/session.h).
// The input is an .om file. When it carries asc-tools' checksum tag, the target rewrites the
// CRC32 to match the mutated bytes first, so the fuzzer gets past the integrity check into the
// partition table and the ModelDef (the checksum check itself is a single comparison).
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

  auto summary = om::readOmSummary(path);
  fuzz::report("readOmSummary", summary.isOk() ? Status::ok() : summary.status());
  auto json = om::omToJson(path);
  fuzz::report("omToJson", json.isOk() ? Status::ok() : json.status());
  auto model = om::loadOm(path);
  fuzz::report("loadOm", model.isOk() ? Status::ok() : model.status());
  if (model.isOk()) {
    Status v = ir::verify(model->graph);
    fuzz::report("verify", v);
    ASC_FUZZ_CHECK(v.isOk());  // loadOm promises a valid graph or an error
  }
  if (!summary.isOk()) return 0;

  runtime::SessionOptions opts;
  opts.threads = 1;
  auto session = runtime::Session::load(path, opts);
  fuzz::report("Session::load", session.isOk() ? Status::ok() : session.status());
  if (session.isOk() && (*session)->arenaBytes() <= (size_t(16) << 20)) {
    (*session)->zeroInputs();
    Status st = (*session)->run();
    fuzz::report("run", st);
  }
  return 0;
}
