// platform_ascendc.h: the host-side platform queries of CANN's Ascend C, in CANN's spellings, so a
// tiling function written for CANN reads the same here:
//
//   auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
//   uint32_t aivNum = ascendcPlatform.GetCoreNumAiv();
//   uint64_t ubSize;
//   ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
//   size_t sysWorkspace = ascendcPlatform.GetLibApiWorkSpaceSize();   // 0 on the CPU
//
// and, outside a tiling function (KernelLaunch projects, host programs),
// platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAic().
//
// The answers come from the chip table below (kChips), keyed by the --soc_version spelling; the
// chip is named by an fe::PlatFormInfos (what gert::TilingContext::GetPlatformInfo() returns) or
// directly by its name. A null fe::PlatFormInfos, a null name or a chip not in the table means
// the default chip, Ascend910B1 (asc::ascendc::kDefaultSoc). The sources of the figures, and the
// ones that are UNCONFIRMED, are listed in docs/ascendc.md ("Platform information").
//
// Header only: inline functions and constexpr data, no std::string, nothing to link, the same
// with either value of _GLIBCXX_USE_CXX11_ABI.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>

// The host code of CANN's operator projects is compiled as C++11 (their cmake/intf.cmake): what
// needs C++14's relaxed constexpr is plain inline there, and the tables are per translation unit.
#if __cplusplus >= 201402L
#define ASC_CONSTEXPR14 constexpr
#else
#define ASC_CONSTEXPR14 inline
#endif
#if __cplusplus >= 201703L
#define ASC_INLINE_VAR inline
#else
#define ASC_INLINE_VAR static
#endif

namespace fe {

/// The platform description a tiling function receives (CANN declares the class and fills it
/// from the chip's platform_config .ini). Here it only names the chip: `soc` is a --soc_version
/// spelling, e.g. "Ascend310P3"; it must outlive the PlatformAscendC objects made from it.
class PlatFormInfos {
 public:
  constexpr PlatFormInfos() = default;
  constexpr explicit PlatFormInfos(const char* soc_version) : soc(soc_version) {}

  const char* soc = "Ascend910B1";
};

}  // namespace fe

/// CANN's NPU architecture number (e.g. 2201 for the Ascend910B parts), declared without its
/// enumerators as CANN's platform_ascendc.h does; GetCurNpuArch() returns the number.
enum class NpuArch : uint32_t;

namespace platform_ascendc {

/// The on-chip (and global) memories GetCoreMemSize and GetCoreMemBw report, CANN's values.
enum class CoreMemType {
  L0_A = 0,  // L0A buffer (left matrix of the Cube unit)
  L0_B = 1,  // L0B buffer (right matrix)
  L0_C = 2,  // L0C buffer (Cube results)
  L1 = 3,    // L1 buffer
  L2 = 4,    // L2 cache, chip-wide
  UB = 5,    // unified buffer (vector operands)
  HBM = 6,   // global memory
  FB = 7,    // fixpipe buffer
  BT = 8,    // bias table
  RESERVED
};

/// Chip families, CANN's enumerators and values (only the first four are in kChips).
enum class SocVersion {
  ASCEND910 = 0,  // Ascend910, Ascend910A
  ASCEND910B,     // Ascend910B1 .. Ascend910B4
  ASCEND310P,     // Ascend310P1, Ascend310P3
  ASCEND310B,     // Ascend310B1
  ASCEND950,
  ASCEND910_55,
  ASCEND910_95 = ASCEND950,
  AS31XM1,
  ASCEND031,
  ASCEND035,
  ASCEND310,  // Ascend310
  ASCEND610,
  ASCEND610Lite,
  ASCEND910_93,
  BS9SX1A,
  BS9SX2A,
  HI3796CV300CS,
  HI3796CV300ES,
  MC61AM21A,
  MC62,
  SD3403,
  KIRINX90,
  KIRIN9030,
  MC32DM11A,
  ASCEND350,
  RESERVED_VERSION = 99999
};

/// How much of the unified buffer ReserveLocalMemory sets aside.
enum class ReservedSize {
  RESERVED_SIZE_8K,
  RESERVED_SIZE_16K,
  RESERVED_SIZE_32K,
};

namespace detail {

/// One chip: the figures of its platform_config .ini (as far as public sources give them).
struct ChipSpec {
  const char* name;        // --soc_version spelling
  SocVersion version;      // family
  uint32_t npu_arch;       // NpuArch number, 0 when not known
  bool split;              // separate Cube and Vector cores (core_type_list=CubeCore,VectorCore)
  uint32_t ai_core;        // ai_core_cnt: AI Cores (the Cube cores on a split chip)
  uint32_t vector_core;    // vector_core_cnt: AIVs on a split chip, the stand-alone Vector Cores
                           // of an Ascend310P, 0 where there are none
  uint64_t l0a, l0b, l0c;  // bytes
  uint64_t l1, l2, ub;     // bytes
  uint64_t hbm;            // bytes of device memory
  uint64_t fb, bt;         // fixpipe buffer and bias table bytes (0: none or not known)
  uint64_t l2_bw, hbm_bw;  // bytes per cycle
};

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr uint64_t kGiB = 1024 * kMiB;

/// The chips asc-tools knows (the --soc_version table of libasccore).
ASC_INLINE_VAR constexpr ChipSpec kChips[] = {
    // name, version, npu_arch, split, ai_core, vector_core,
    //   l0a, l0b, l0c, l1, l2, ub, hbm, fb, bt, l2_bw, hbm_bw
    {"Ascend310", SocVersion::ASCEND310, 0, false, 2, 0,  //
     64 * kKiB, 64 * kKiB, 256 * kKiB, 1 * kMiB, 8 * kMiB, 256 * kKiB, 8 * kGiB, 0, 0, 110, 32},
    {"Ascend310B1", SocVersion::ASCEND310B, 3002, false, 1, 1,  //
     64 * kKiB, 64 * kKiB, 128 * kKiB, 1 * kMiB, 4 * kMiB, 248 * kKiB, 16 * kGiB, 0, 0, 256, 17},
    {"Ascend310P1", SocVersion::ASCEND310P, 2002, false, 10, 8,  //
     64 * kKiB, 64 * kKiB, 256 * kKiB, 1 * kMiB, 16 * kMiB, 256 * kKiB, 24 * kGiB, 0, 0, 114, 17},
    {"Ascend310P3", SocVersion::ASCEND310P, 2002, false, 8, 7,  //
     64 * kKiB, 64 * kKiB, 256 * kKiB, 1 * kMiB, 16 * kMiB, 256 * kKiB, 24 * kGiB, 0, 0, 114, 17},
    {"Ascend910", SocVersion::ASCEND910, 1001, false, 32, 0,  //
     64 * kKiB, 64 * kKiB, 256 * kKiB, 1 * kMiB, 32 * kMiB, 256 * kKiB, 32 * kGiB, 0, 0, 110, 32},
    {"Ascend910A", SocVersion::ASCEND910, 1001, false, 32, 0,  //
     64 * kKiB, 64 * kKiB, 256 * kKiB, 1 * kMiB, 32 * kMiB, 256 * kKiB, 32 * kGiB, 0, 0, 110, 32},
    {"Ascend910B1", SocVersion::ASCEND910B, 2201, true, 24, 48,  //
     64 * kKiB, 64 * kKiB, 128 * kKiB, 512 * kKiB, 192 * kMiB, 192 * kKiB, 64 * kGiB, 7 * kKiB,
     1 * kKiB, 110, 32},
    {"Ascend910B2", SocVersion::ASCEND910B, 2201, true, 24, 48,  //
     64 * kKiB, 64 * kKiB, 128 * kKiB, 512 * kKiB, 192 * kMiB, 192 * kKiB, 64 * kGiB, 7 * kKiB,
     1 * kKiB, 110, 32},
    {"Ascend910B3", SocVersion::ASCEND910B, 2201, true, 20, 40,  //
     64 * kKiB, 64 * kKiB, 128 * kKiB, 512 * kKiB, 192 * kMiB, 192 * kKiB, 64 * kGiB, 7 * kKiB,
     1 * kKiB, 110, 32},
    {"Ascend910B4", SocVersion::ASCEND910B, 2201, true, 20, 40,  //
     64 * kKiB, 64 * kKiB, 128 * kKiB, 512 * kKiB, 96 * kMiB, 192 * kKiB, 32 * kGiB, 7 * kKiB,
     1 * kKiB, 110, 32},
};

/// The chip CANN's Ascend C samples target by default (asc::ascendc::kDefaultSoc).
ASC_INLINE_VAR constexpr const char* kDefaultChip = "Ascend910B1";

/// Bytes an Ascend910B part keeps back from its UB and L1 for the library's own use; CANN's
/// GetCoreMemSize reports the rest, and so does this one.
constexpr uint64_t kAscend910BLocalReserve = 256;

/// The ASCII case-insensitive equality of two names (either may be null: then false).
ASC_CONSTEXPR14 bool sameName(const char* a, const char* b) {
  if (a == nullptr || b == nullptr) return false;
  for (; *a != '\0' && *b != '\0'; ++a, ++b) {
    char x = *a, y = *b;
    if (x >= 'A' && x <= 'Z') x = char(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = char(y - 'A' + 'a');
    if (x != y) return false;
  }
  return *a == *b;
}

/// The table entry of `name`, nullptr when the table has none.
ASC_CONSTEXPR14 const ChipSpec* findChip(const char* name) {
  for (const ChipSpec& c : kChips)
    if (sameName(c.name, name)) return &c;
  return nullptr;
}

/// The table entry of `name`, or of the default chip when `name` is null or not in the table.
ASC_CONSTEXPR14 const ChipSpec& chipOrDefault(const char* name) {
  const ChipSpec* c = findChip(name);
  return c != nullptr ? *c : *findChip(kDefaultChip);
}

}  // namespace detail

/// The platform of one chip, as a tiling function sees it.
class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  ~PlatformAscendC() = default;
  /// The chip `platformInfo` names (the default chip for nullptr or an unknown name).
  ASC_CONSTEXPR14 explicit PlatformAscendC(fe::PlatFormInfos* platformInfo)
      : chip_(&detail::chipOrDefault(platformInfo != nullptr ? platformInfo->soc : nullptr)) {}
  /// asc-tools: the chip named by its --soc_version spelling (the default chip when unknown).
  ASC_CONSTEXPR14 explicit PlatformAscendC(const char* socVersion)
      : chip_(&detail::chipOrDefault(socVersion)) {}
  /// The default chip (so that PlatformAscendC(nullptr) is not ambiguous).
  ASC_CONSTEXPR14 explicit PlatformAscendC(std::nullptr_t)
      : chip_(&detail::chipOrDefault(nullptr)) {}

  /// The cores a vector kernel spreads over: the Vector Cores of a split chip (Ascend910B), the
  /// AI Cores of the others.
  ASC_CONSTEXPR14 uint32_t GetCoreNum(void) const {
    return chip_->split ? chip_->vector_core : chip_->ai_core;
  }
  /// The Cube cores of a split chip; the AI Cores of the others.
  ASC_CONSTEXPR14 uint32_t GetCoreNumAic(void) const { return chip_->ai_core; }
  /// The Vector cores of a split chip; the AI Cores of the others.
  ASC_CONSTEXPR14 uint32_t GetCoreNumAiv(void) const {
    return chip_->split ? chip_->vector_core : chip_->ai_core;
  }
  /// The stand-alone Vector Cores of an Ascend310P part (beside its AI Cores); 0 elsewhere.
  ASC_CONSTEXPR14 uint32_t GetCoreNumVector(void) const {
    return chip_->version == SocVersion::ASCEND310P ? chip_->vector_core : 0;
  }

  /// The block count for `sliceNum` slices of work. With both a Cube and a Vector count (a mix
  /// kernel) the slices are counted in Vector cores and a block is one Cube core with its
  /// aivCoreNum / aicCoreNum Vector cores; otherwise every slice is a block. 0 when a 1:2 mix
  /// kernel would need more blocks than there are Cube cores (CANN's answer too).
  ASC_CONSTEXPR14 uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum,
                                             uint32_t aivCoreNum) const {
    if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
    const uint32_t per_block = aivCoreNum / aicCoreNum;
    const uint32_t blocks = sliceNum / per_block + (sliceNum % per_block != 0 ? 1 : 0);
    if (per_block == 2 && blocks > aicCoreNum) return 0;
    return blocks;
  }
  /// The older name of CalcTschNumBlocks (deprecated in CANN).
  ASC_CONSTEXPR14 uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum,
                                            uint32_t aivCoreNum) const {
    return CalcTschNumBlocks(sliceNum, aicCoreNum, aivCoreNum);
  }

  /// The system workspace the Ascend C library APIs need: none on the CPU (in the kernel,
  /// GetUserWorkspace(w) is w itself), so 0 for every chip.
  ASC_CONSTEXPR14 uint32_t GetLibApiWorkSpaceSize(void) const { return 0; }
  /// The workspace of the Cube group and group barrier facilities: none on the CPU either.
  ASC_CONSTEXPR14 uint32_t GetResCubeGroupWorkSpaceSize(void) const { return 0; }
  ASC_CONSTEXPR14 uint32_t GetResGroupBarrierWorkSpaceSize(void) const { return 0; }

  /// The bytes of `memType` (0 for RESERVED and for an FB/BT the chip lacks). On an Ascend910B
  /// part the UB and L1 figures leave out the 256 bytes CANN keeps back, and the UB figure
  /// leaves out what ReserveLocalMemory set aside.
  ASC_CONSTEXPR14 void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
    const detail::ChipSpec& c = *chip_;
    const uint64_t reserve =
        c.version == SocVersion::ASCEND910B ? detail::kAscend910BLocalReserve : 0;
    switch (memType) {
      case CoreMemType::L0_A:
        size = c.l0a;
        break;
      case CoreMemType::L0_B:
        size = c.l0b;
        break;
      case CoreMemType::L0_C:
        size = c.l0c;
        break;
      case CoreMemType::L1:
        size = c.l1 - reserve;
        break;
      case CoreMemType::L2:
        size = c.l2;
        break;
      case CoreMemType::UB:
        size = c.ub - reserve - reserved_ub_;
        break;
      case CoreMemType::HBM:
        size = c.hbm;
        break;
      case CoreMemType::FB:
        size = c.fb;
        break;
      case CoreMemType::BT:
        size = c.bt;
        break;
      default:
        size = 0;
        break;
    }
  }
  /// Bytes per cycle of the L2 cache or the global memory; 0 for the other kinds, as in CANN.
  ASC_CONSTEXPR14 void GetCoreMemBw(const CoreMemType& memType, uint64_t& bwSize) const {
    if (memType == CoreMemType::L2)
      bwSize = chip_->l2_bw;
    else if (memType == CoreMemType::HBM)
      bwSize = chip_->hbm_bw;
    else
      bwSize = 0;
  }
  /// Sets `size` bytes of the unified buffer aside; GetCoreMemSize(UB) reports what remains.
  /// The last call counts.
  ASC_CONSTEXPR14 void ReserveLocalMemory(ReservedSize size) {
    switch (size) {
      case ReservedSize::RESERVED_SIZE_8K:
        reserved_ub_ = 8 * detail::kKiB;
        break;
      case ReservedSize::RESERVED_SIZE_16K:
        reserved_ub_ = 16 * detail::kKiB;
        break;
      case ReservedSize::RESERVED_SIZE_32K:
        reserved_ub_ = 32 * detail::kKiB;
        break;
    }
  }

  /// The chip's family.
  ASC_CONSTEXPR14 SocVersion GetSocVersion(void) const { return chip_->version; }
  /// The chip's NPU architecture number (NpuArch(0) for Ascend310, not known here).
  ASC_CONSTEXPR14 NpuArch GetCurNpuArch(void) const {
    return static_cast<NpuArch>(chip_->npu_arch);
  }
  /// The vector register width in bits of a register-based vector unit: 0, none of the chips
  /// in the table has one.
  ASC_CONSTEXPR14 uint32_t GetVecRegLen(void) const { return 0; }

  /// asc-tools: the --soc_version spelling of the chip answered for (the table's spelling).
  ASC_CONSTEXPR14 const char* GetSocName(void) const { return chip_->name; }

 private:
  const detail::ChipSpec* chip_;
  uint64_t reserved_ub_ = 0;
};

/// The process-wide platform, for code that has no tiling context. The first call fixes the
/// chip: GetInstance(name) with a non-null name takes that chip, otherwise the environment
/// variable ASC_SOC_VERSION names it when set, otherwise the default chip; an unknown name
/// means the default chip. Never nullptr.
class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance() { return instance(nullptr); }
  static PlatformAscendC* GetInstance(const char* customSocVersion) {
    return instance(customSocVersion);
  }

 private:
  PlatformAscendCManager() = delete;
  static PlatformAscendC* instance(const char* requested) {
    static fe::PlatFormInfos info(chosenChip(requested));
    static PlatformAscendC platform(&info);
    return &platform;
  }
  static const char* chosenChip(const char* requested) {
    const char* name = requested != nullptr ? requested : std::getenv("ASC_SOC_VERSION");
    if (name != nullptr && *name == '\0') name = nullptr;
    return detail::chipOrDefault(name).name;  // the table's copy: lives as long as the program
  }
};

}  // namespace platform_ascendc
