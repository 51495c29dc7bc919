// text_proto_errors.cpp: see text_proto_errors.h.
#include "support/text_proto_errors.h"

#include <fmt/format.h>

#include <vector>

namespace asc {

void TextProtoErrors::AddError(int line, google::protobuf::io::ColumnNumber column,
                               const std::string& message) {
  if (has_) return;
  has_ = true;
  line_ = line;
  column_ = column;
  message_ = message;
}

std::string TextProtoErrors::describe(const std::string& text) const {
  if (!has_) return "malformed";
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t e = text.find('\n', pos);
    if (e == std::string::npos) e = text.size();
    lines.push_back(text.substr(pos, e - pos));
    pos = e + 1;
  }
  auto trim = [](const std::string& s) {
    const size_t b = s.find_first_not_of(" \t\r");
    const size_t e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  int line = line_;
  bool moved = false;
  if (line >= 0 && line < static_cast<int>(lines.size()) &&
      lines[line].find(':') == std::string::npos) {
    for (int l = line - 1; l >= 0; --l)
      if (lines[l].find(':') != std::string::npos) {
        line = l;
        moved = true;
        break;
      }
  }
  std::string where = moved ? fmt::format("line {}", line + 1)
                            : fmt::format("line {}, column {}", line + 1, column_ + 1);
  std::string near;
  if (line >= 0 && line < static_cast<int>(lines.size()) && !trim(lines[line]).empty())
    near = fmt::format(" (near '{}')", trim(lines[line]).substr(0, 80));
  return fmt::format("{}: {}{}", where, message_, near);
}

}  // namespace asc
