// core_types_test.cpp: vector and cube cores: g_coreType and ASCEND_IS_AIV/AIC, mixed kernels
// on split chips, and what a cube core may not take (the unified buffer).
#include <catch2/catch.hpp>

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "asc/ascendc/launch.h"
#include "asc/support/log.h"
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
#include "launch_helpers.h"
#include "tikicpulib.h"

using namespace AscendC;
using asc::ascendc::launchKernel;
using asc::ascendc::LaunchOptions;
using asc_test::has;
using asc_test::run;

TEST_CASE("a mixed kernel runs two vector blocks per block on split chips only", "[ascendc]") {
  using asc::ascendc::subBlocksFor;
  CHECK(subBlocksFor("Ascend910B1", true) == 2);
  CHECK(subBlocksFor("ascend910b3", true) == 2);
  CHECK(subBlocksFor("", true) == 2);  // the default chip, Ascend910B1
  CHECK(subBlocksFor("Ascend910B1", false) == 1);
  CHECK(subBlocksFor("Ascend310P3", true) == 1);
  // Two sub-blocks per block: indices 0..3 for blockDim 2, each seen once.
  LaunchOptions o;
  o.sub_blocks = subBlocksFor("Ascend910B1", true);
  std::mutex mu;
  std::multiset<int64_t> seen;
  CHECK(run(
            [&] {
              std::lock_guard<std::mutex> lock(mu);
              seen.insert(GetBlockIdx());
              CHECK(GetBlockNum() == 4);
            },
            2, o) == "");
  CHECK(seen == std::multiset<int64_t>{0, 1, 2, 3});
}

TEST_CASE("g_coreType and ASCEND_IS_AIV/AIC follow the launch's core type", "[ascendc]") {
  CHECK(int32_t(g_coreType) == AIV);  // outside a launch: a vector core
  for (bool cube : {false, true}) {
    LaunchOptions o;
    o.cube = cube;
    std::atomic<int> aic{0}, aiv{0};
    CHECK(run(
              [&] {
                if (g_coreType == AIV) ++aiv;
                if (AscendC::g_coreType == AIC) ++aic;
                CHECK(ASCEND_IS_AIC == cube);
                CHECK(ASCEND_IS_AIV == !cube);
                CHECK(ASCEND_IS_NOT_AIC == !cube);
              },
              3, o) == "");
    CHECK(aic == (cube ? 3 : 0));
    CHECK(aiv == (cube ? 0 : 3));
  }
}

TEST_CASE("a block on a cube core (AIC) may not take unified-buffer memory", "[ascendc]") {
  LaunchOptions cube;
  cube.cube = true;
  const std::string queue = run(
      [] {
        TPipe pipe;
        TQue<QuePosition::VECIN, 2> in;
        pipe.InitBuffer(in, 2, 1024);
      },
      2, cube);
  CHECK(has(queue, "kernel 'k' block 0: InitBuffer: a queue in the unified buffer"));
  CHECK(has(queue, "cube core (AIC)"));
  CHECK(has(run(
                [] {
                  TPipe pipe;
                  TBuf<TPosition::VECCALC> tmp;
                  pipe.InitBuffer(tmp, 256);
                },
                1, cube),
            "a TBuf in the unified buffer"));
  // The cube core's own memories are its to take; vector cores take the unified buffer.
  CHECK(run(
            [] {
              TPipe pipe;
              TQue<TPosition::A1, 1> a1;
              pipe.InitBuffer(a1, 1, 1024);
            },
            1, cube) == "");
  CHECK(run([] {
          TPipe pipe;
          TQue<QuePosition::VECIN, 2> in;
          pipe.InitBuffer(in, 2, 1024);
        }) == "");
}

TEST_CASE("a MIX kernel runs on both vector cores of each block of a split chip", "[ascendc]") {
  struct Seen {
    int64_t idx, num, sub, subs;
  };
  std::vector<Seen> seen;
  std::mutex mu;
  auto kernel = [&] {
    std::lock_guard<std::mutex> lock(mu);
    seen.push_back({GetBlockIdx(), GetBlockNum(), GetSubBlockIdx(), GetSubBlockNum()});
  };
  auto run = [&](const char* soc, int mode) {
    seen.clear();
    asc::ascendc::detail::setKernelMode(mode);
    asc::ascendc::detail::icpuRunOn(
        soc, "k", 2, [](void* p) { (*static_cast<decltype(kernel)*>(p))(); }, &kernel);
    std::sort(seen.begin(), seen.end(), [](const Seen& a, const Seen& b) { return a.idx < b.idx; });
  };
  run("Ascend910B1", int(KernelMode::MIX_MODE));  // 1 cube + 2 vector cores per AI Core
  REQUIRE(seen.size() == 4);
  for (int64_t i = 0; i < 4; ++i) {
    CHECK(seen[i].idx == i);
    CHECK(seen[i].num == 4);
    CHECK(seen[i].sub == i % 2);
    CHECK(seen[i].subs == 2);
  }
  run("Ascend910B1", int(KernelMode::AIV_MODE));
  REQUIRE(seen.size() == 2);
  CHECK(seen[1].num == 2);
  CHECK(seen[1].subs == 1);
  run("Ascend310P3", int(KernelMode::MIX_MODE));  // AI Cores with cube and vector units
  REQUIRE(seen.size() == 2);
  CHECK(seen[1].sub == 0);
  asc::ascendc::detail::setKernelMode(-1);
}
