// graph/ascend_string.h: ge::AscendString, the string CANN's graph and registration APIs take and
// return (framework plugins: OriginOpType, ge::Operator's attributes). Kept as bytes, so a plugin
// built with -D_GLIBCXX_USE_CXX11_ABI=0 and libasccore built with the default ABI read the same
// object (register/abi_string.h). C++11, as CANN's operator projects compile it.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>

#include "register/abi_string.h"

namespace ge {

class AscendString {
 public:
  AscendString() = default;
  AscendString(const char* name) : s_(name) {}  // NOLINT: implicit, as CANN's
  AscendString(const char* name, size_t length)
      : s_(std::string(name ? name : "", name ? length : 0)) {}
  const char* GetString() const { return s_.c_str(); }
  size_t GetLength() const { return s_.size(); }
  bool operator<(const AscendString& o) const {
    return std::strcmp(GetString(), o.GetString()) < 0;
  }
  bool operator>(const AscendString& o) const { return o < *this; }
  bool operator<=(const AscendString& o) const { return !(o < *this); }
  bool operator>=(const AscendString& o) const { return !(*this < o); }
  bool operator==(const AscendString& o) const { return s_ == o.s_; }
  bool operator!=(const AscendString& o) const { return s_ != o.s_; }

 private:
  asc::AbiString s_;
};

}  // namespace ge
