// log.cpp: the stderr sink. Debug lines also carry the calling function.
#include "asc/support/log.h"

#include <cstdio>
#include <mutex>

namespace asc::log {
namespace {
Level g_level = Level::Warning;
std::string g_program = "asc";
std::mutex g_mutex;
const char* levelName(Level l) {
  switch (l) {
    case Level::Debug:
      return "debug";
    case Level::Info:
      return "info";
    case Level::Warning:
      return "warning";
    case Level::Error:
      return "error";
    case Level::Null:
      return "null";
  }
  return "?";
}
}  // namespace

void setLevel(Level level) { g_level = level; }
Level level() { return g_level; }
bool enabled(Level l) { return l >= g_level && l != Level::Null; }
void setProgram(std::string name) { g_program = std::move(name); }

Result<Level> parseLevel(std::string_view text) {
  for (Level l : {Level::Debug, Level::Info, Level::Warning, Level::Error, Level::Null})
    if (text == levelName(l)) return l;
  return Status::error(ErrorCode::BadLogLevel,
                       "invalid value for --log:{}, only support debug, info, warning, error, null",
                       text);
}

void write(Level l, const char* func, std::string_view message) {
  if (!enabled(l)) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  std::fflush(stdout);  // keep stdout and stderr in order when both go to one terminal
  if (l == Level::Debug)
    std::fprintf(stderr, "%s: %s: [%s] %.*s\n", g_program.c_str(), levelName(l), func,
                 static_cast<int>(message.size()), message.data());
  else
    std::fprintf(stderr, "%s: %s: %.*s\n", g_program.c_str(), levelName(l),
                 static_cast<int>(message.size()), message.data());
}
}  // namespace asc::log
