// common.cpp: see common.h.
#include "asc/cli/common.h"

#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace asc::cli {

Status applyLogOption(const std::string& value, bool given) {
  if (!given) {
    log::setLevel(log::Level::Warning);
    return Status::ok();
  }
  ASC_TRY(log::Level level, log::parseLevel(value));
  log::setLevel(level);
  return Status::ok();
}

Result<int64_t> parseInt(const std::string& name, const std::string& value, int64_t min,
                         int64_t max, const std::string& accepted) {
  const std::string takes = accepted.empty() ? fmt::format("from {} to {}", min, max) : accepted;
  if (value.empty())
    return Status::error(ErrorCode::EmptyParam,
                         "Value for --{} is empty. Reason: give a whole number {}", name, takes);
  errno = 0;
  char* end = nullptr;
  const long long n = std::strtoll(value.c_str(), &end, 10);
  const bool whole = end != value.c_str() && *end == '\0' && errno != ERANGE &&
                     (value[0] == '-' || value[0] == '+' || (value[0] >= '0' && value[0] <= '9'));
  if (!whole || n < min || n > max)
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --{} is invalid. Reason: give a whole number {}",
                         value, name, takes);
  return static_cast<int64_t>(n);
}

Result<bool> parseBool(const std::string& name, const std::string& value) {
  if (value == "true") return true;
  if (value == "false") return false;
  return Status::error(ErrorCode::BoolParam,
                       "Value {} for parameter --{} is invalid. Reason: use true or false", value,
                       name);
}

Result<int> parseThreads(const std::string& value) {
  ASC_TRY(int64_t n, parseInt("threads", value, 1, kMaxThreads));
  return static_cast<int>(n);
}

std::string versionText(const std::string& tool) {
  std::string text = fmt::format("{} (asc-tools) {}\n", tool, asc::version());
  if (tool == "atc")
    text +=
        "command line: CANN 8.x atc (the open-source GraphEngine's, 2026; the exact CANN release "
        "is unconfirmed)\n"
        "frameworks: ONNX (--framework=5, opsets 1-24); Caffe (0: .prototxt with --weight); "
        "TensorFlow (3: frozen .pb GraphDef); MindSpore (1) is refused with E10055\n"
        "compatibility matrix: docs/compatibility.md (atc --compatibility)\n";
  return text;
}

}  // namespace asc::cli
