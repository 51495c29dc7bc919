// text_proto_errors.h: the first error protobuf's text-format parser reports, described for a
// user: "line L, column C: <protobuf's message> (near '<that line>')". Shared by the readers of
// text-format files (the AIPP configuration, Caffe prototxts).
#pragma once

#include <google/protobuf/io/tokenizer.h>

#include <string>

namespace asc {

class TextProtoErrors : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override;
  void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string&) override {}

  /// protobuf reports some errors (a bad enum value) at the token after the culprit, a line
  /// holding only "}": the line given and quoted is then the closest line above that sets a
  /// field. "malformed" when the parser reported nothing.
  std::string describe(const std::string& text) const;

 private:
  bool has_ = false;
  int line_ = 0, column_ = 0;
  std::string message_;
};

}  // namespace asc
