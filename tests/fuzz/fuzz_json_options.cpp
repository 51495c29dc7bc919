// fuzz_json_options: atc's JSON option files, both read through support/json_config:
// --op_blacklist (passes::readOpBlacklist) and --modify_mixlist (passes::readMixList).
#include "asc/passes/pass.h"
#include "asc/passes/precision.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace asc;
  fuzz::quietLogs();
  const std::string path = fuzz::writeTemp("options.json", data, size);
  passes::PassContext ctx;
  fuzz::report("readOpBlacklist", passes::readOpBlacklist(path, &ctx));
  passes::PrecisionOptions opts;
  fuzz::report("readMixList", passes::readMixList(path, &opts));
  return 0;
}
