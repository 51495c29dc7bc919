// status_test.cpp: Status/Result, the code table, logging levels.
#include <catch2/catch.hpp>

#include "asc/support/log.h"
#include "asc/support/status.h"

using namespace asc;

namespace {
Result<int> half(int x) {
  if (x % 2) return Status::error(ErrorCode::InvalidParam, "{} is odd", x);
  return x / 2;
}
Result<int> quarter(int x) {
  ASC_TRY(int h, half(x));
  ASC_TRY(int q, half(h));
  return q;
}
}  // namespace

TEST_CASE("Status carries a code and a message", "[support]") {
  Status ok;
  CHECK(ok.isOk());
  Status e = Status::error(ErrorCode::InputShapeMismatch, "input '{}' wrong", "x");
  CHECK_FALSE(e.isOk());
  CHECK(e.toString() == "E1001: input 'x' wrong");
  CHECK(e.withContext("m.onnx").toString() == "E1001: m.onnx: input 'x' wrong");
}

TEST_CASE("ASC_TRY propagates the first error", "[support]") {
  CHECK(*quarter(8) == 2);
  auto r = quarter(6);
  REQUIRE_FALSE(r.isOk());
  CHECK(r.status().code() == ErrorCode::InvalidParam);
  CHECK(r.status().message() == "3 is odd");
}

TEST_CASE("the seed codes keep their spellings", "[support]") {
  CHECK(std::string(errorCodeString(ErrorCode::InputShapeMismatch)) == "E1001");
  CHECK(std::string(errorCodeString(ErrorCode::UnsupportedOp)) == "E2002");
  CHECK(std::string(errorCodeString(ErrorCode::MemoryExceeded)) == "E3003");
  CHECK(std::string(errorCodeString(ErrorCode::Internal)) == "E19999");
  size_t n = 0;
  auto* all = allErrorCodes(&n);
  REQUIRE(n > 10);
  for (size_t i = 0; i < n; ++i) CHECK(errorCodeDescription(all[i].first)[0] != '\0');
}

TEST_CASE("log levels parse as --log spells them", "[support]") {
  CHECK(*log::parseLevel("debug") == log::Level::Debug);
  CHECK(*log::parseLevel("null") == log::Level::Null);
  auto bad = log::parseLevel("verbose");
  REQUIRE_FALSE(bad.isOk());
  CHECK(bad.status().code() == ErrorCode::BadLogLevel);
  log::setLevel(log::Level::Error);
  CHECK_FALSE(log::enabled(log::Level::Warning));
  CHECK(log::enabled(log::Level::Error));
  log::setLevel(log::Level::Warning);
}
