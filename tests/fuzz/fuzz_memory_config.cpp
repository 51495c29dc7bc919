// fuzz_memory_config: atc's small text configuration files (atc/atc_config.h): the
// --memory_config INI ([memory_optimize] section) and the --fusion_switch_file lines.
#include "atc_config.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace asc;
  fuzz::quietLogs();
  const std::string path = fuzz::writeTemp("memory.cfg", data, size);
  auto mc = atc::readMemoryConfig(path);
  fuzz::report("readMemoryConfig", mc.isOk() ? Status::ok() : mc.status());
  std::set<std::string> disabled;
  fuzz::report("readFusionSwitch", atc::readFusionSwitch(path, &disabled));
  return 0;
}
