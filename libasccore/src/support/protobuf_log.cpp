// protobuf_log.cpp: see protobuf_log.h.
#include "support/protobuf_log.h"

#include <google/protobuf/stubs/logging.h>

#include <mutex>

#include "asc/support/log.h"

namespace asc {
namespace {
void handler(google::protobuf::LogLevel level, const char* file, int line,
             const std::string& message) {
  ASC_LOG_DEBUG("protobuf {}:{}: {}", file, line, message);
}
}  // namespace

void routeProtobufLogs() {
  static std::once_flag once;
  std::call_once(once, [] { google::protobuf::SetLogHandler(handler); });
}
}  // namespace asc
