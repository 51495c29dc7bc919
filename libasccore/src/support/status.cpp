// status.cpp: the error-code table and Status formatting.
#include "asc/support/status.h"

namespace asc {
namespace {
struct CodeInfo {
  const char* code;
  const char* text;
};
const CodeInfo kCodes[] = {
#define ASC_ERROR(name, code, text) {code, text},
#include "asc/support/error_codes.def"
#undef ASC_ERROR
};
const std::pair<ErrorCode, const char*> kAll[] = {
#define ASC_ERROR(name, code, text) {ErrorCode::name, code},
#include "asc/support/error_codes.def"
#undef ASC_ERROR
};
}  // namespace

const char* errorCodeString(ErrorCode c) { return kCodes[static_cast<int>(c)].code; }
const char* errorCodeDescription(ErrorCode c) { return kCodes[static_cast<int>(c)].text; }
const std::pair<ErrorCode, const char*>* allErrorCodes(size_t* count) {
  *count = sizeof(kAll) / sizeof(kAll[0]);
  return kAll;
}

std::string Status::toString() const {
  if (isOk()) return "OK";
  return fmt::format("{}: {}", errorCodeString(code_), message_);
}

Status Status::withContext(const std::string& context) const {
  if (isOk()) return *this;
  return Status(code_, context + ": " + message_);
}

const char* version() { return "0.1.0"; }
}  // namespace asc
