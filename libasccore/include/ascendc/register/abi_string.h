// abi_string.h: asc::AbiString, the strings inside the host API's objects (ops::OpDef,
// gert::TilingContext, domi::OpRegistrationData). Those objects are made on one side of the
// library boundary and read on the other: op_host code built with -D_GLIBCXX_USE_CXX11_ABI=0
// (as CANN's operator projects and samples build it) and libasccore built with the default ABI.
// std::string's layout differs between the two ABIs; a vector of chars does not. Accessors
// return std::string by value, built in the caller's own ABI.
#pragma once

#include <cstring>
#include <string>
#include <vector>

namespace asc {

class AbiString {
 public:
  AbiString() = default;
  AbiString(const char* s) {
    assign(s, s ? std::strlen(s) : 0);
  }  // NOLINT: implicit, as std::string
  AbiString(const std::string& s) { assign(s.data(), s.size()); }  // NOLINT
  const char* c_str() const { return chars_.empty() ? "" : chars_.data(); }
  size_t size() const { return chars_.empty() ? 0 : chars_.size() - 1; }
  bool empty() const { return size() == 0; }
  std::string str() const { return std::string(c_str(), size()); }
  bool operator==(const AbiString& o) const { return std::strcmp(c_str(), o.c_str()) == 0; }
  bool operator!=(const AbiString& o) const { return !(*this == o); }

 private:
  void assign(const char* s, size_t n) {
    chars_.assign(s, s + n);
    chars_.push_back('\0');
  }
  std::vector<char> chars_;  // with the terminating NUL; empty for ""
};

}  // namespace asc
