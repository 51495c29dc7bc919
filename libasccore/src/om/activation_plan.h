// activation_plan.h: where each activation lives in the OM's arena (activation_plan.cpp),
// shared by the OM writer and atc's memory summary. Private to om.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "asc/ir/graph.h"
#include "support/memory_planner.h"

namespace asc::om {

// Lifetimes of every node output in execution order: from its node to its last consumer (graph
// outputs live to the end). Model inputs are caller buffers (Data ops), not in the arena.
// In-place sharing: a Reshape-like op's output is its input's bytes, and a Conv whose fused
// residual (input 3) dies at it writes its output into the residual's buffer (as the CPU
// runtime does); each such group is one buffer living from its first producer to its last use.
struct ActivationPlan {
  std::unordered_map<const ir::Value*, uint64_t> offsets;
  MemoryPlan plan;
};

ActivationPlan planActivations(const ir::Graph& g, bool reuse);

}  // namespace asc::om
