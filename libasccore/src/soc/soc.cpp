// soc.cpp: the chip table. Memory sizes are those of the common board of each chip.
// Unified-buffer sizes (the last column): 192 KiB on the Ascend910B parts, 256 KiB on the
// others. The 910B figure is the one Ascend C material quotes for that chip; the 256 KiB of
// Ascend310, 310B, 310P and 910/910A is the usual DaVinci AI Core figure and is UNCONFIRMED for
// 310B1 in particular.
#include "asc/soc/soc.h"

#include <fmt/format.h>

namespace asc::soc {

const std::vector<SocInfo>& allSocs() {
  constexpr uint64_t GiB = uint64_t(1) << 30;
  constexpr uint64_t KiB = 1024;
  static const std::vector<SocInfo> table = {
      {"Ascend310", "MINI", 8 * GiB, 16, false, 8.0, {}, 256 * KiB},
      {"Ascend310B1", "MINI", 16 * GiB, 16, false, 10.0, {}, 248 * KiB},  // UB: docs/ascendc.md
      {"Ascend310P1", "MINI", 24 * GiB, 16, false, 70.0, {}, 256 * KiB},
      {"Ascend310P3", "MINI", 24 * GiB, 16, false, 70.0, {}, 256 * KiB},
      {"Ascend910", "CLOUD", 32 * GiB, 16, false, 256.0, {}, 256 * KiB},
      {"Ascend910A", "CLOUD", 32 * GiB, 16, false, 256.0, {}, 256 * KiB},
      {"Ascend910B1", "CLOUD", 64 * GiB, 16, true, 414.0, {}, 192 * KiB},
      {"Ascend910B2", "CLOUD", 64 * GiB, 16, true, 376.0, {}, 192 * KiB},
      {"Ascend910B3", "CLOUD", 64 * GiB, 16, true, 313.0, {}, 192 * KiB},
      {"Ascend910B4", "CLOUD", 32 * GiB, 16, true, 280.0, {}, 192 * KiB},
  };
  return table;
}

std::string shortSocName(const SocInfo& s) {
  // "Ascend" + three digits, then the variant letter and its number: P and B name a family of
  // their own (Ascend310P, Ascend910B); A is the first Ascend910.
  std::string name = s.name;
  const size_t base = 9;  // "Ascend" + 3 digits
  if (name.size() <= base) return name;
  if (name[base] == 'A') return name.substr(0, base);
  return name.substr(0, base + 1);
}

Result<const SocInfo*> findSoc(std::string_view name) {
  if (name.empty())
    return Status::error(ErrorCode::EmptyParam,
                         "Value for --soc_version is empty; give the chip the model will run on, "
                         "e.g. --soc_version=Ascend310P3");
  std::vector<std::string> names;
  for (const auto& s : allSocs()) {
    if (name == s.name) return &s;
    names.push_back(s.name);
  }
  return Status::error(ErrorCode::InvalidParam,
                       "Value {} for parameter --soc_version is invalid. Reason: unknown chip; "
                       "known chips are: {}",
                       name, fmt::join(names, ", "));
}

bool supportsDtype(const SocInfo& s, ir::DType t) { return t != ir::DType::BF16 || s.has_bf16; }

}  // namespace asc::soc
