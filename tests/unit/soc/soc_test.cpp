// soc_test.cpp: the chip table.
#include <catch2/catch.hpp>

#include "asc/soc/soc.h"

using namespace asc;

TEST_CASE("known chips are found, unknown ones listed", "[soc]") {
  for (const char* name : {"Ascend310", "Ascend310P3", "Ascend910", "Ascend910B1", "Ascend910B2",
                           "Ascend910B3", "Ascend910B4"}) {
    auto s = soc::findSoc(name);
    REQUIRE(s.isOk());
    CHECK((*s)->memory_bytes > 0);
    CHECK((*s)->c0 == 16);
  }
  auto bad = soc::findSoc("Ascend42");
  REQUIRE_FALSE(bad.isOk());
  CHECK(bad.status().code() == ErrorCode::InvalidParam);
  CHECK(bad.status().message().find("Ascend910B1") != std::string::npos);
  CHECK(soc::findSoc("").status().code() == ErrorCode::EmptyParam);
}

TEST_CASE("bf16 only where the chip has it", "[soc]") {
  CHECK_FALSE(soc::supportsDtype(**soc::findSoc("Ascend310"), ir::DType::BF16));
  CHECK(soc::supportsDtype(**soc::findSoc("Ascend910B1"), ir::DType::BF16));
  CHECK(soc::supportsDtype(**soc::findSoc("Ascend310"), ir::DType::F16));
}

TEST_CASE("every chip has a unified-buffer size for Ascend C kernels", "[soc]") {
  for (const auto& s : soc::allSocs()) CHECK(s.ub_bytes >= 192 * 1024);
  CHECK((*soc::findSoc("Ascend910B1"))->ub_bytes == 192 * 1024);
  CHECK((*soc::findSoc("Ascend310P3"))->ub_bytes == 256 * 1024);
}
