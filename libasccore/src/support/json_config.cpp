// json_config.cpp: see json_config.h.
#include "support/json_config.h"

#include <google/protobuf/util/json_util.h>

#include <fstream>
#include <sstream>

namespace asc {

Status readJsonConfig(const std::string& path, const char* option, const char* expected,
                      google::protobuf::Message* msg) {
  std::ifstream f(path);
  if (!f)
    return Status::error(ErrorCode::FileOpenFailed, "cannot open --{} file '{}'; check the path",
                         option, path);
  std::stringstream ss;
  ss << f.rdbuf();
  auto st = google::protobuf::util::JsonStringToMessage(ss.str(), msg);
  if (!st.ok())
    return Status::error(ErrorCode::JsonParseFailed, "--{} {}: {}; expected {}", option, path,
                         st.ToString(), expected);
  return Status::ok();
}

}  // namespace asc
