// atc_config.h: the small configuration files atc reads (--fusion_switch_file, --memory_config).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "asc/support/status.h"

namespace asc::atc {

/// --fusion_switch_file: "PassName:on|off" lines ('#' comments). Passes switched off are added
/// to `disabled`; an unknown pass name is warned about and skipped.
Status readFusionSwitch(const std::string& path, std::set<std::string>* disabled);
/// --optimization_switch "PassName:on;PassName:off", the same entries as a switch file.
Status readOptimizationSwitch(const std::string& spec, std::set<std::string>* disabled);

/// --memory_config: an INI file whose [memory_optimize] section sets
///   enable_memory_reuse = true|false   (false is --disable_reuse_memory=1)
///   memory_reuse_mb = N                (the activation arena may not exceed N MiB: E3003)
/// Unknown sections or keys are errors (E10001 naming the file and line), never ignored.
struct MemoryConfig {
  std::optional<bool> enable_memory_reuse;
  std::optional<uint64_t> memory_reuse_mb;
};
Result<MemoryConfig> readMemoryConfig(const std::string& path);

}  // namespace asc::atc
