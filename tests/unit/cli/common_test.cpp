// common_test.cpp: the command-line vocabulary the tools share (asc::cli): strict integers and
// booleans, --threads, --log and the --version text.
#include <catch2/catch.hpp>

#include "asc/cli/common.h"
#include "asc/frontend/onnx.h"

using namespace asc;

TEST_CASE("cli::parseInt takes whole numbers in range and nothing else", "[cli]") {
  CHECK(cli::parseInt("loop", "7", 1, 100).value() == 7);
  CHECK(cli::parseInt("loop", "+7", 1, 100).value() == 7);
  CHECK(cli::parseInt("device", "-3", -5, 5).value() == -3);
  CHECK(cli::parseInt("loop", "", 1, 100).status().code() == ErrorCode::EmptyParam);
  for (const char* bad : {"0", "101", "7x", "x7", " 7", "7 ", "1e2", "3.5", "-", "+",
                          "99999999999999999999999", "-99999999999999999999999", "0x10"}) {
    INFO(bad);
    auto r = cli::parseInt("loop", bad, 1, 100);
    REQUIRE_FALSE(r.isOk());
    CHECK(r.status().code() == ErrorCode::InvalidParam);
    CHECK(r.status().message().find("--loop") != std::string::npos);
    CHECK(r.status().message().find("from 1 to 100") != std::string::npos);
  }
}

TEST_CASE("cli::parseBool and cli::parseThreads", "[cli]") {
  CHECK(cli::parseBool("dump", "true").value());
  CHECK_FALSE(cli::parseBool("dump", "false").value());
  for (const char* bad : {"TRUE", "1", "yes", ""})
    CHECK(cli::parseBool("dump", bad).status().code() == ErrorCode::BoolParam);
  CHECK(cli::parseThreads("2").value() == 2);
  CHECK(cli::parseThreads("1024").value() == 1024);
  for (const char* bad : {"0", "-1", "1025", "two"})
    CHECK(cli::parseThreads(bad).status().code() == ErrorCode::InvalidParam);
}

TEST_CASE("cli::applyLogOption sets the level", "[cli]") {
  REQUIRE(cli::applyLogOption("info", true).isOk());
  CHECK(log::level() == log::Level::Info);
  REQUIRE(cli::applyLogOption("debug", false).isOk());  // not given: warnings
  CHECK(log::level() == log::Level::Warning);
  CHECK(cli::applyLogOption("loud", true).code() == ErrorCode::BadLogLevel);
  REQUIRE(cli::applyLogOption("warning", true).isOk());
}

TEST_CASE("cli::versionText names the tool and what atc follows", "[cli]") {
  const std::string v = cli::versionText("msame");
  CHECK(v == std::string("msame (asc-tools) ") + asc::version() + "\n");
  const std::string a = cli::versionText("atc");
  CHECK(a.find("atc (asc-tools) ") == 0);
  CHECK(a.find("CANN") != std::string::npos);
  // The opsets it names are the importer's.
  CHECK(a.find(fmt::format("opsets {}-{}", frontend::kMinOnnxOpset, frontend::kMaxOnnxOpset)) !=
        std::string::npos);
  CHECK(a.find("Caffe") != std::string::npos);
}
