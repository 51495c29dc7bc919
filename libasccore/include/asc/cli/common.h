// common.h: what every tool's command line shares. Each tool keeps the real tool's spellings and
// its own parser (atc's gflags style, msame's, msaccucmp's short options, msprof's); the values
// they share go through these functions, so the same value means the same thing everywhere and a
// bad one gets the same message:
//   --log=debug|info|warning|error|null   what goes to stderr (warnings by default)
//   --threads=N                            kernel and compare threads, 1..kMaxThreads
//   --version                              "<tool> (asc-tools) <version>" and what it follows
// Integer and boolean option values are parsed strictly: no trailing text, no overflow, within
// the documented range, or E10001 naming the option, the value and what it takes.
#pragma once

#include <cstdint>
#include <string>

#include "asc/asc.h"
#include "asc/support/log.h"
#include "asc/support/status.h"

namespace asc::cli {

/// Exit statuses the tools share with the real ones: 0 success; atc's FAILED reaches the shell
/// as 255; msame, mscompare and msprof exit 1 on failure (mscompare: 2 for a usage error).
constexpr int kExitOk = 0;
constexpr int kExitAtcFailed = 255;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

constexpr int kMaxThreads = 1024;

/// Sets the log level from --log. `given` false keeps the default (warnings). E10010 for an
/// unknown level.
ASC_API Status applyLogOption(const std::string& value, bool given);

/// A whole decimal number in [min, max] for option --`name`: E10004 when empty, E10001 when not
/// a number, out of range or followed by other text. The message says what the option takes:
/// `accepted` ("from 1 to 100"), or "from min to max" when it is empty (a tool whose real
/// counterpart words its range check its own way passes the widest range and checks later).
ASC_API Result<int64_t> parseInt(const std::string& name, const std::string& value, int64_t min,
                                 int64_t max, const std::string& accepted = "");
/// "true" or "false" for option --`name` (E10005 otherwise).
ASC_API Result<bool> parseBool(const std::string& name, const std::string& value);
/// --threads: 1..kMaxThreads.
ASC_API Result<int> parseThreads(const std::string& value);

/// The --version text: the tool, the asc-tools version, and for atc the CANN command line it
/// follows, the ONNX opsets it reads and the frameworks it takes.
ASC_API std::string versionText(const std::string& tool);

}  // namespace asc::cli
