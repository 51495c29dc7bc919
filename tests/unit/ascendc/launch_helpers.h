// launch_helpers.h: what the Ascend C layer's launch tests share: a launch of a body on some
// blocks returning its error message, and a substring check that prints the message it read.
#pragma once

#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include "asc/ascendc/launch.h"

namespace asc_test {

/// Runs `body` on `blocks` blocks; the error message ("" when OK).
inline std::string run(const std::function<void()>& body, uint32_t blocks = 1,
                       const asc::ascendc::LaunchOptions& opt = {}) {
  asc::Status st = asc::ascendc::launchKernel("k", blocks, body, opt);
  if (st.isOk()) return "";
  CHECK(st.code() == asc::ErrorCode::KernelCheckFailed);
  return st.message();
}

inline bool has(const std::string& text, const std::string& part) {
  INFO("message: " << text);
  return text.find(part) != std::string::npos;
}

}  // namespace asc_test
