// json_config.cpp: see json_config.h.
#include "support/json_config.h"

#include <google/protobuf/util/json_util.h>

#include <fstream>
#include <sstream>

namespace asc {

Result<std::string> readConfigText(const std::string& path, const char* option) {
  std::ifstream f(path);
  if (!f)
    return Status::error(ErrorCode::FileOpenFailed, "cannot open --{} file '{}'; check the path",
                         option, path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Status readJsonConfig(const std::string& path, const char* option, const char* expected,
                      google::protobuf::Message* msg) {
  ASC_TRY(std::string text, readConfigText(path, option));
  return parseJsonConfig(text, path, option, expected, msg);
}

Status parseJsonConfig(const std::string& text, const std::string& path, const char* option,
                       const char* expected, google::protobuf::Message* msg) {
  auto st = google::protobuf::util::JsonStringToMessage(text, msg);
  if (!st.ok())
    return Status::error(ErrorCode::JsonParseFailed, "--{} {}: {}; expected {}", option, path,
                         st.ToString(), expected);
  return Status::ok();
}

}  // namespace asc
