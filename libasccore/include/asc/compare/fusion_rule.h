// fusion_rule.h: the fusion rule file of a comparison, i.e. the `atc --mode=1` JSON of an OM
// (ascend-facts.md 1.9, 5.4). For every device op it gives the original framework ops fused
// into it (attribute _datadump_original_op_names), and the op list gives execution order.
#pragma once

#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/support/status.h"

namespace asc::compare {

struct FusionOp {
  std::string name, type;
  /// _datadump_original_op_names, in the order recorded (empty when the op has none).
  std::vector<std::string> original_names;
};

struct FusionRule {
  /// Device ops in graph order (the OM's execution order).
  std::vector<FusionOp> ops;
};

/// Reads an `atc --mode=1` JSON (top-level "graph": [{"op": [...]}]). E13001 when it cannot be
/// opened, E10032 when it is not JSON or has no graph/op list.
ASC_API Result<FusionRule> readFusionRule(const std::string& path);

}  // namespace asc::compare
