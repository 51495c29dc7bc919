// log.h: levelled logging to stderr. The library logs through these functions only; it never
// prints to stdout. Default level: warning. Tools map --log=debug|info|warning|error|null here.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "asc/asc.h"
#include "asc/support/status.h"

namespace asc::log {

enum class Level { Debug = 0, Info = 1, Warning = 2, Error = 3, Null = 4 };

ASC_API void setLevel(Level level);
ASC_API Level level();
/// Parses "debug|info|warning|error|null"; E10010 otherwise.
ASC_API Result<Level> parseLevel(std::string_view text);
/// The program name put in front of every line ("atc: warning: ...").
ASC_API void setProgram(std::string name);
ASC_API bool enabled(Level level);
ASC_API void write(Level level, const char* func, std::string_view message);

template <typename... Args>
void logf(Level lvl, const char* func, fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(lvl)) write(lvl, func, fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace asc::log

#define ASC_LOG_DEBUG(...) ::asc::log::logf(::asc::log::Level::Debug, __func__, __VA_ARGS__)
#define ASC_LOG_INFO(...) ::asc::log::logf(::asc::log::Level::Info, __func__, __VA_ARGS__)
#define ASC_LOG_WARN(...) ::asc::log::logf(::asc::log::Level::Warning, __func__, __VA_ARGS__)
#define ASC_LOG_ERROR(...) ::asc::log::logf(::asc::log::Level::Error, __func__, __VA_ARGS__)
