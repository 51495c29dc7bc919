// fuzz_npy: .npy parsing (tensorio/tensor_file.h): parseNpy on the bytes, readTensorFile on the
// same bytes as a file (the mapped fast path), and the round trip: a tensor that parses must
// encode and parse back to itself.
#include "asc/tensorio/tensor_file.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace asc;
  fuzz::quietLogs();
  auto t = tensorio::parseNpy(data, size, "fuzz.npy");
  fuzz::report("parseNpy", t.isOk() ? Status::ok() : t.status());

  const std::string path = fuzz::writeTemp("t.npy", data, size);
  auto lt = tensorio::readTensorFile(path);
  fuzz::report("readTensorFile", lt.isOk() ? Status::ok() : lt.status());
  ASC_FUZZ_CHECK(t.isOk() == lt.isOk());  // the two readers accept the same files
  if (!t.isOk()) return 0;
  ASC_FUZZ_CHECK(lt->has_dtype);
  ASC_FUZZ_CHECK(lt->tensor == *t);

  std::string enc = tensorio::encodeNpy(*t);
  auto back = tensorio::parseNpy(enc.data(), enc.size(), "re-encoded");
  fuzz::report("parseNpy(encodeNpy)", back.isOk() ? Status::ok() : back.status());
  ASC_FUZZ_CHECK(back.isOk());
  ASC_FUZZ_CHECK(*back == *t);
  return 0;
}
