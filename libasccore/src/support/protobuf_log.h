// protobuf_log.h: routes libprotobuf's own log lines (e.g. "invalid UTF-8" while parsing a
// damaged file) into asc::log at debug level, so the library never prints on its own.
#pragma once

namespace asc {
void routeProtobufLogs();
}  // namespace asc
