// fuzz_fusion_rule: the fusion rule JSON of a comparison (compare/fusion_rule.h), i.e. an
// `atc --mode=1` rendering, as mscompare --fusion_rule_file reads it.
#include "asc/compare/fusion_rule.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace asc;
  fuzz::quietLogs();
  const std::string path = fuzz::writeTemp("fusion_rule.json", data, size);
  auto r = compare::readFusionRule(path);
  fuzz::report("readFusionRule", r.isOk() ? Status::ok() : r.status());
  return 0;
}
