// status.h: errors as values. A Status carries one code of error_codes.def and a message that
// says what was wrong, where, and what to do. Result<T> is a value or a Status.
#pragma once

#include <fmt/format.h>

#include <cassert>
#include <optional>
#include <string>
#include <utility>

#include "asc/asc.h"

namespace asc {

enum class ErrorCode {
#define ASC_ERROR(name, code, text) name,
#include "asc/support/error_codes.def"
#undef ASC_ERROR
};

/// The printed code of `c`, e.g. "E10001".
ASC_API const char* errorCodeString(ErrorCode c);
/// One line on what `c` means.
ASC_API const char* errorCodeDescription(ErrorCode c);
/// Every code, in table order (for --list-errors and docs).
ASC_API const std::pair<ErrorCode, const char*>* allErrorCodes(size_t* count);

class [[nodiscard]] ASC_API Status {
 public:
  Status() = default;
  static Status ok() { return Status(); }
  static Status error(ErrorCode code, std::string message) {
    return Status(code, std::move(message));
  }
  template <typename... Args>
  static Status error(ErrorCode code, fmt::format_string<Args...> f, Args&&... args) {
    return Status(code, fmt::format(f, std::forward<Args>(args)...));
  }

  bool isOk() const { return code_ == ErrorCode::Ok; }
  explicit operator bool() const { return isOk(); }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  /// "E10001: <message>"
  std::string toString() const;
  /// The same status with `context` put in front of the message ("while reading x: ...").
  Status withContext(const std::string& context) const;

 private:
  Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}
  ErrorCode code_ = ErrorCode::Ok;
  std::string message_;
};

/// A value of T, or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}
  Result(Status status) : status_(std::move(status)) {
    assert(!status_.isOk() && "Result built from an OK status without a value");
  }
  bool isOk() const { return value_.has_value(); }
  explicit operator bool() const { return isOk(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace asc

#define ASC_CONCAT_INNER(a, b) a##b
#define ASC_CONCAT(a, b) ASC_CONCAT_INNER(a, b)

/// Returns early with the status when `expr` (a Status) failed.
#define ASC_RETURN_IF_ERROR(expr)                \
  do {                                           \
    ::asc::Status asc_status_ = (expr);          \
    if (!asc_status_.isOk()) return asc_status_; \
  } while (0)

/// ASC_TRY(auto x, resultExpr): declares x from a Result, or returns its Status.
#define ASC_TRY(decl, expr) ASC_TRY_IMPL(ASC_CONCAT(asc_result_, __LINE__), decl, expr)
#define ASC_TRY_IMPL(tmp, decl, expr)   \
  auto tmp = (expr);                    \
  if (!tmp.isOk()) return tmp.status(); \
  decl = std::move(tmp).value()
