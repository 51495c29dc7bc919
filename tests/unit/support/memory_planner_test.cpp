// memory_planner_test.cpp: lifetimes share bytes only when they do not overlap.
#include <catch2/catch.hpp>

#include "support/memory_planner.h"

using namespace asc;

TEST_CASE("disjoint lifetimes share bytes; overlapping ones do not", "[support][memory]") {
  // a: steps 0-1, b: 1-2, c: 2-3 (reuses a's bytes), d: 0-3 (lives throughout).
  std::vector<BufferRequest> reqs = {{1000, 0, 1}, {500, 1, 2}, {1000, 2, 3}, {64, 0, 3}};
  MemoryPlan p = planMemory(reqs, 64, true);
  auto overlaps = [&](size_t i, size_t j) {
    size_t ai = p.offsets[i], bi = ai + reqs[i].bytes, aj = p.offsets[j], bj = aj + reqs[j].bytes;
    return ai < bj && aj < bi;
  };
  for (size_t i = 0; i < reqs.size(); ++i)
    for (size_t j = i + 1; j < reqs.size(); ++j) {
      bool live_together = !(reqs[i].last < reqs[j].first || reqs[j].last < reqs[i].first);
      if (live_together) CHECK_FALSE(overlaps(i, j));
      CHECK(p.offsets[i] % 64 == 0);
    }
  CHECK(p.peak_live_bytes == 1024 + 512 + 64);
  CHECK(p.arena_bytes <= 1024 + 512 + 64 + 1024);
  MemoryPlan seq = planMemory(reqs, 64, false);
  CHECK(seq.arena_bytes == 1024 + 512 + 1024 + 64);
  CHECK(seq.arena_bytes > p.arena_bytes);
}

TEST_CASE("fixed buffers stay where they are; the rest fit around them", "[support][memory]") {
  // f1 fixed at 0 (steps 0-1), f2 fixed at 1024 (steps 2-3); x (steps 2-3) must avoid f2 but
  // may take f1's bytes once f1 is dead; y (steps 0-3) overlaps both in time.
  std::vector<BufferRequest> reqs = {{1000, 0, 1}, {1000, 2, 3}, {900, 2, 3}, {100, 0, 3}};
  reqs[0].fixed_offset = 0;
  reqs[1].fixed_offset = 1024;
  MemoryPlan p = planMemory(reqs, 64, true);
  CHECK(p.offsets[0] == 0);
  CHECK(p.offsets[1] == 1024);
  CHECK(p.offsets[2] == 0);  // f1's bytes, free from step 2
  for (size_t i = 0; i < reqs.size(); ++i)
    for (size_t j = i + 1; j < reqs.size(); ++j) {
      const bool live_together = !(reqs[i].last < reqs[j].first || reqs[j].last < reqs[i].first);
      const bool share = p.offsets[i] < p.offsets[j] + reqs[j].bytes &&
                         p.offsets[j] < p.offsets[i] + reqs[i].bytes;
      CHECK_FALSE((live_together && share));
    }
  MemoryPlan seq = planMemory(reqs, 64, false);
  CHECK(seq.offsets[0] == 0);
  CHECK(seq.offsets[1] == 1024);
  CHECK(seq.offsets[2] >= 2048);
  CHECK(seq.offsets[3] >= seq.offsets[2] + 960);
}
