// memory_planner.h: places buffers with known lifetimes in one arena (used by atc to record
// the plan in the OM and by the runtime for its physical buffers). Two buffers share bytes
// only when their lifetimes (first and last step that touch them) do not overlap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace asc {

struct BufferRequest {
  size_t bytes = 0;
  int first = 0;  // step that writes it first (-1: before the first step)
  int last = 0;   // step that reads it last
  /// Already placed at this offset (e.g. by the OM's plan); the others fit around it.
  size_t fixed_offset = SIZE_MAX;
};

struct MemoryPlan {
  std::vector<size_t> offsets;  // per request
  size_t arena_bytes = 0;
  size_t peak_live_bytes = 0;  // the lower bound: most bytes live at one step
};

/// Greedy best-offset placement, largest buffers first, around the buffers with a fixed
/// offset; `reuse = false` lays the others end to end after the fixed ones.
MemoryPlan planMemory(const std::vector<BufferRequest>& reqs, size_t alignment, bool reuse);

}  // namespace asc
