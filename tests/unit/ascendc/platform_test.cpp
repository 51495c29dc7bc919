// platform_test.cpp: platform_ascendc::PlatformAscendC (tiling/platform/platform_ascendc.h): the
// per-chip core counts and memory sizes, the CPU's zero system workspace, the chip a tiling
// context names, the process-wide instance and the fallback to the default chip.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "asc/ascendc/launch.h"
#include "asc/soc/soc.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using platform_ascendc::CoreMemType;
using platform_ascendc::PlatformAscendC;
using platform_ascendc::PlatformAscendCManager;
using platform_ascendc::SocVersion;

namespace {

uint64_t memSize(const PlatformAscendC& p, CoreMemType t) {
  uint64_t size = 12345;
  p.GetCoreMemSize(t, size);
  return size;
}

constexpr uint64_t KiB = 1024;

}  // namespace

TEST_CASE("PlatformAscendC: Ascend910B1 has 24 Cube and 48 Vector cores and a 192 KiB UB",
          "[ascendc]") {
  PlatformAscendC p("Ascend910B1");
  CHECK(std::string(p.GetSocName()) == "Ascend910B1");
  CHECK(p.GetSocVersion() == SocVersion::ASCEND910B);
  CHECK(p.GetCoreNumAic() == 24);
  CHECK(p.GetCoreNumAiv() == 48);
  CHECK(p.GetCoreNum() == 48);  // split chip: the Vector cores
  CHECK(p.GetCoreNumVector() == 0);
  // UB and L1 as CANN reports them on a 910B part: less the 256 bytes it keeps back.
  CHECK(memSize(p, CoreMemType::UB) == 192 * KiB - 256);
  CHECK(memSize(p, CoreMemType::L1) == 512 * KiB - 256);
  CHECK(memSize(p, CoreMemType::L0_A) == 64 * KiB);
  CHECK(memSize(p, CoreMemType::L0_B) == 64 * KiB);
  CHECK(memSize(p, CoreMemType::L0_C) == 128 * KiB);
  CHECK(memSize(p, CoreMemType::L2) == 192 * KiB * KiB);
  CHECK(memSize(p, CoreMemType::RESERVED) == 0);
  CHECK(static_cast<uint32_t>(p.GetCurNpuArch()) == 2201);

  uint64_t bw = 0;
  p.GetCoreMemBw(CoreMemType::HBM, bw);
  CHECK(bw == 32);
  p.GetCoreMemBw(CoreMemType::UB, bw);
  CHECK(bw == 0);
}

TEST_CASE("PlatformAscendC: Ascend310P3 has 8 AI Cores, 7 Vector Cores and a 256 KiB UB",
          "[ascendc]") {
  PlatformAscendC p("Ascend310P3");
  CHECK(p.GetSocVersion() == SocVersion::ASCEND310P);
  CHECK(p.GetCoreNumAic() == 8);  // coupled chip: AI Cores for both
  CHECK(p.GetCoreNumAiv() == 8);
  CHECK(p.GetCoreNum() == 8);
  CHECK(p.GetCoreNumVector() == 7);  // the stand-alone Vector Cores
  CHECK(memSize(p, CoreMemType::UB) == 256 * KiB);
  CHECK(memSize(p, CoreMemType::L1) == 1024 * KiB);
  CHECK(memSize(p, CoreMemType::L0_C) == 256 * KiB);

  PlatformAscendC p1("Ascend310P1");
  CHECK(p1.GetCoreNumAic() == 10);
  CHECK(p1.GetCoreNumVector() == 8);
}

TEST_CASE("PlatformAscendC: no system workspace on the CPU", "[ascendc]") {
  for (const auto& chip : platform_ascendc::detail::kChips) {
    INFO(chip.name);
    PlatformAscendC p(chip.name);
    CHECK(p.GetLibApiWorkSpaceSize() == 0);
    CHECK(p.GetResCubeGroupWorkSpaceSize() == 0);
    CHECK(p.GetResGroupBarrierWorkSpaceSize() == 0);
    CHECK(std::string(p.GetSocName()) == chip.name);
  }
}

TEST_CASE("PlatformAscendC: the chip table matches the --soc_version table", "[ascendc]") {
  for (const auto& soc : asc::soc::allSocs()) {
    INFO(soc.name);
    CHECK(platform_ascendc::detail::findChip(soc.name) != nullptr);
  }
  for (const auto& chip : platform_ascendc::detail::kChips) {
    INFO(chip.name);
    CHECK(asc::soc::findSoc(chip.name).isOk());
  }
  CHECK(std::string(platform_ascendc::detail::kDefaultChip) == asc::ascendc::kDefaultSoc);
  CHECK(std::string(fe::PlatFormInfos().soc) == asc::ascendc::kDefaultSoc);
}

TEST_CASE("PlatformAscendC: a tiling context names the default chip unless set", "[ascendc]") {
  gert::TilingContext ctx;
  REQUIRE(ctx.GetPlatformInfo() != nullptr);
  auto ascendcPlatform = PlatformAscendC(ctx.GetPlatformInfo());
  CHECK(std::string(ascendcPlatform.GetSocName()) == asc::ascendc::kDefaultSoc);
  CHECK(ascendcPlatform.GetCoreNumAiv() == 48);

  ctx.platform_info_.soc = "Ascend310P3";
  CHECK(PlatformAscendC(ctx.GetPlatformInfo()).GetCoreNumVector() == 7);
}

TEST_CASE("PlatformAscendC: an unknown or missing chip is the default chip", "[ascendc]") {
  const std::string def = asc::ascendc::kDefaultSoc;
  CHECK(PlatformAscendC("Ascend9999").GetSocName() == def);
  CHECK(PlatformAscendC("").GetSocName() == def);
  CHECK(PlatformAscendC(nullptr).GetSocName() == def);
  CHECK(PlatformAscendC(static_cast<fe::PlatFormInfos*>(nullptr)).GetSocName() == def);
  CHECK(PlatformAscendC(static_cast<const char*>(nullptr)).GetSocName() == def);
  fe::PlatFormInfos unknown("NotAChip");
  CHECK(PlatformAscendC(&unknown).GetSocName() == def);
  // Names compare without regard to case, as CMake SOC_VERSION values are often written.
  CHECK(std::string(PlatformAscendC("ascend310p3").GetSocName()) == "Ascend310P3");
}

TEST_CASE("PlatformAscendCManager: one process-wide platform", "[ascendc]") {
  PlatformAscendC* p = PlatformAscendCManager::GetInstance();
  REQUIRE(p != nullptr);
  CHECK(PlatformAscendCManager::GetInstance() == p);
  CHECK(PlatformAscendCManager::GetInstance("Ascend310P3") == p);  // the first call decides
  // ASC_SOC_VERSION names the chip when set (and known); the default chip otherwise.
  const char* env = std::getenv("ASC_SOC_VERSION");
  const char* expected =
      platform_ascendc::detail::chipOrDefault(env != nullptr && *env != '\0' ? env : nullptr).name;
  CHECK(std::string(p->GetSocName()) == expected);
  CHECK(p->GetLibApiWorkSpaceSize() == 0);
}

TEST_CASE("PlatformAscendC: ReserveLocalMemory and CalcTschNumBlocks", "[ascendc]") {
  PlatformAscendC p("Ascend310P3");
  p.ReserveLocalMemory(platform_ascendc::ReservedSize::RESERVED_SIZE_8K);
  CHECK(memSize(p, CoreMemType::UB) == 248 * KiB);
  p.ReserveLocalMemory(platform_ascendc::ReservedSize::RESERVED_SIZE_32K);  // the last counts
  CHECK(memSize(p, CoreMemType::UB) == 224 * KiB);
  CHECK(memSize(p, CoreMemType::L1) == 1024 * KiB);

  PlatformAscendC b("Ascend910B1");
  CHECK(b.CalcTschNumBlocks(48, 24, 48) == 24);  // mix 1:2: two Vector slices per block
  CHECK(b.CalcTschNumBlocks(47, 24, 48) == 24);
  CHECK(b.CalcTschNumBlocks(49, 24, 48) == 0);  // would need a 25th Cube core
  CHECK(b.CalcTschNumBlocks(40, 0, 48) == 40);  // vector only
  CHECK(b.CalcTschNumBlocks(20, 24, 0) == 20);  // cube only
  CHECK(b.CalcTschBlockDim(48, 24, 48) == 24);
}
