// soc.h: one data row per Ascend chip. --soc_version selects a row; an unknown name is an
// error that lists the known ones. Peak figures are public marketing numbers, used only for
// efficiency estimates and labelled as such.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/dtype.h"
#include "asc/support/status.h"

namespace asc::soc {

struct SocInfo {
  const char* name;         // --soc_version spelling, e.g. "Ascend910B1"
  const char* target_type;  // "MINI" (inference parts) or "CLOUD" (training parts)
  uint64_t memory_bytes;    // device memory (HBM/DDR)
  int c0;                   // C0 of the NC1HWC0 format for 16-bit types
  bool has_bf16;
  double peak_fp16_tflops;                // AI Core cube peak
  std::vector<const char*> excluded_ops;  // IR op names this chip lacks
  uint64_t ub_bytes = 0;  // AI Core unified buffer (UB), the limit of an Ascend C kernel's TPipe
};

/// All known chips, in table order.
ASC_API const std::vector<SocInfo>& allSocs();
/// The chip named `name`; E10001 listing the known names otherwise (E10004 when empty).
ASC_API Result<const SocInfo*> findSoc(std::string_view name);
/// The chip's family as CANN's platform files name it (Short_SoC_version): Ascend910B1 ->
/// Ascend910B, Ascend310P3 -> Ascend310P, Ascend910A -> Ascend910 (UNCONFIRMED for 910A),
/// Ascend310 -> Ascend310. Lower-cased, it is the compute unit of operator packages.
ASC_API std::string shortSocName(const SocInfo& s);
/// Whether the chip supports a dtype (bf16 only where the chip has it).
ASC_API bool supportsDtype(const SocInfo& s, ir::DType t);

}  // namespace asc::soc
