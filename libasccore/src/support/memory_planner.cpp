// memory_planner.cpp: interval placement. Buffers are sorted by size (largest first) and each
// takes the lowest aligned offset that does not collide with an already placed buffer whose
// lifetime overlaps its own. Buffers with a fixed offset are placed first, as given.
#include "support/memory_planner.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace asc {

namespace {
size_t alignUp(size_t v, size_t a) { return (v + a - 1) / a * a; }
}  // namespace

MemoryPlan planMemory(const std::vector<BufferRequest>& reqs, size_t alignment, bool reuse) {
  MemoryPlan plan;
  plan.offsets.assign(reqs.size(), 0);
  // Peak of live bytes over steps (the bound any placement must meet).
  std::map<int, long long> delta;
  for (const auto& r : reqs) {
    delta[r.first] += static_cast<long long>(alignUp(r.bytes, alignment));
    delta[r.last + 1] -= static_cast<long long>(alignUp(r.bytes, alignment));
  }
  long long live = 0;
  for (const auto& [step, d] : delta) {
    live += d;
    plan.peak_live_bytes = std::max(plan.peak_live_bytes, static_cast<size_t>(std::max(0LL, live)));
  }
  // Fixed buffers first, as given.
  std::vector<size_t> placed;
  for (size_t i = 0; i < reqs.size(); ++i)
    if (reqs[i].fixed_offset != SIZE_MAX) {
      plan.offsets[i] = reqs[i].fixed_offset;
      plan.arena_bytes =
          std::max(plan.arena_bytes,
                   reqs[i].fixed_offset + alignUp(std::max<size_t>(reqs[i].bytes, 1), alignment));
      placed.push_back(i);
    }
  if (!reuse) {
    size_t off = alignUp(plan.arena_bytes, alignment);
    for (size_t i = 0; i < reqs.size(); ++i) {
      if (reqs[i].fixed_offset != SIZE_MAX) continue;
      plan.offsets[i] = off;
      off += alignUp(reqs[i].bytes, alignment);
    }
    plan.arena_bytes = off;
    return plan;
  }
  std::vector<size_t> order;
  for (size_t i = 0; i < reqs.size(); ++i)
    if (reqs[i].fixed_offset == SIZE_MAX) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return reqs[a].bytes > reqs[b].bytes; });
  for (size_t idx : order) {
    const auto& r = reqs[idx];
    const size_t size = alignUp(std::max<size_t>(r.bytes, 1), alignment);
    // Collect the occupied ranges of overlapping-lifetime buffers, sorted by offset.
    std::vector<std::pair<size_t, size_t>> busy;
    for (size_t p : placed) {
      const auto& q = reqs[p];
      if (q.last < r.first || r.last < q.first) continue;
      busy.push_back(
          {plan.offsets[p], plan.offsets[p] + alignUp(std::max<size_t>(q.bytes, 1), alignment)});
    }
    std::sort(busy.begin(), busy.end());
    // Best fit: the smallest gap that holds the buffer; else after the last busy range.
    size_t best = SIZE_MAX, best_gap = SIZE_MAX, cursor = 0;
    for (const auto& [b, e] : busy) {
      if (b > cursor && b - cursor >= size && b - cursor < best_gap) {
        best = cursor;
        best_gap = b - cursor;
      }
      cursor = std::max(cursor, e);
    }
    if (best == SIZE_MAX) best = cursor;
    plan.offsets[idx] = best;
    plan.arena_bytes = std::max(plan.arena_bytes, best + size);
    placed.push_back(idx);
  }
  return plan;
}

}  // namespace asc
