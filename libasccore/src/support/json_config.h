// json_config.h: reads a small JSON configuration file (an atc option's file) into a protobuf
// message with protobuf's JSON parser, so an unknown key is an error, never ignored.
#pragma once

#include <google/protobuf/message.h>

#include <string>

#include "asc/support/status.h"

namespace asc {

/// E13001 when `path` cannot be opened, E10032 naming the option, the file, protobuf's reason
/// and `expected` (an example of the format) when it does not parse into `msg`.
Status readJsonConfig(const std::string& path, const char* option, const char* expected,
                      google::protobuf::Message* msg);
/// The same for text already read from `path` (named in messages).
Status parseJsonConfig(const std::string& text, const std::string& path, const char* option,
                       const char* expected, google::protobuf::Message* msg);
/// The whole file: E13001 when it cannot be opened.
Result<std::string> readConfigText(const std::string& path, const char* option);

}  // namespace asc
