// cube_group_test.cpp: CubeResGroupHandle (lib/cube_group/cube_group_intf.h) on a mixed launch:
// vector blocks post work into their queues, the group's cube cores run the callback on each
// message in CANN's order (rows of one message per queue, skipping what a callback served),
// and a group whose vector blocks forget to quit fails the launch instead of hanging.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "asc/ascendc/launch.h"
#include "kernel_operator.h"
#include "lib/cube_group/cube_group_intf.h"

using namespace AscendC;

namespace {

// 64 bytes, the CubeGroupMsgHead first, as CANN requires of a message.
struct Work {
  CubeGroupMsgHead head;
  uint8_t funcId;
  uint8_t skip;     // funcId 1: the next `skip` queues' work is this message's too
  uint32_t n;       // elements per queue
  uint64_t src;     // float*
  uint64_t dst;     // float*
  uint64_t served;  // int32_t*: which cube core served each queue's round, and how
  float scale;
  uint32_t queue;
  uint32_t round;
  uint8_t pad[16];
};
static_assert(sizeof(Work) == 64, "a message is a multiple of 64 bytes");

constexpr int kRounds = 6;  // more than a queue's 4 messages: the slots are reused
constexpr int kQueues = 6, kN = 8;

void doQueue(const Work& w, uint32_t q) {
  auto* src = reinterpret_cast<const float*>(w.src);
  auto* dst = reinterpret_cast<float*>(w.dst);
  const uint64_t at = (uint64_t(w.round) * kQueues + q) * kN;
  for (uint32_t j = 0; j < w.n; ++j) dst[at + j] = src[at + j] * w.scale;
  // The cube core's index and core type, and 1 for a message served through another's.
  reinterpret_cast<int32_t*>(w.served)[w.round * kQueues + q] =
      int32_t(GetBlockIdx() * 100 + (ASCEND_IS_AIC ? 10 : 0) + (q != w.queue ? 1 : 0));
}

template <class Mm, class Msg>
struct Serve {
  static void Init(Serve& self, Mm& mm, GM_ADDR tiling) {
    (void)mm;
    self.inits = reinterpret_cast<int32_t*>(tiling);
    ++self.inits[GetBlockIdx()];
  }
  static void Call(Mm& mm, Msg* msg, CubeResGroupHandle<Msg>& handle) {
    (void)mm;
    doQueue(*msg, msg->queue);
    if (msg->funcId == 1) {
      for (uint32_t i = 1; i <= msg->skip; ++i) doQueue(*msg, msg->queue + i);
      handle.FreeMessage(msg, CubeMsgState::VALID);
      for (uint32_t i = 1; i <= msg->skip; ++i) handle.FreeMessage(msg + i, CubeMsgState::FAKE);
      handle.SetSkipMsg(msg->skip);
    } else {
      handle.FreeMessage(msg);
    }
  }
  int32_t* inits = nullptr;
};

using Mm = MatmulImpl<MatmulType<TPosition::GM, CubeFormat::ND, half>,
                      MatmulType<TPosition::GM, CubeFormat::ND, half>,
                      MatmulType<TPosition::GM, CubeFormat::ND, float>>;

std::string launchMixed(const std::function<void()>& body, uint32_t aics, bool parallel) {
  asc::ascendc::LaunchOptions o;
  o.soc = "Ascend910B1";
  o.sub_blocks = 2;
  o.parallel = parallel;
  asc::Status st = asc::ascendc::launchKernel("cube_group", aics, body, o);
  return st.isOk() ? "" : st.message();
}

}  // namespace

TEST_CASE("CubeResGroupHandle: cube cores serve their queues' messages in CANN's order",
          "[ascendc]") {
  for (bool parallel : {false, true}) {
    INFO("parallel " << parallel);
    std::vector<float> src(kRounds * kQueues * kN), dst(src.size(), -1);
    for (size_t i = 0; i < src.size(); ++i) src[i] = float(i % 97) * 0.5f;
    std::vector<int32_t> served(kRounds * kQueues, -1), inits(4, 0);
    std::vector<uint8_t> ws(4096, 0);
    std::atomic<bool> waits_failed{false};  // no Catch2 assertions on the launch's threads
    // 3 AI cores, 6 vector blocks; the group: AIC 1 and 2 (blockStart 2, blockSize 4), six
    // queues, three to each. Vector block b takes queue b.
    auto msg = launchMixed(
        [&] {
          KfcWorkspace desc(ws.data());
          auto handle = CreateCubeResGroup<1, Mm, Serve, Work>(
              desc, 2, 4, kQueues, reinterpret_cast<GM_ADDR>(inits.data()));
          const auto q = uint8_t(GetBlockIdx());
          handle.AssignQueue(q);
          for (uint32_t r = 0; r < kRounds; ++r) {
            Work* slot = handle.AllocMessage();
            uint16_t id;
            if (r == 1 && (q == 4 || q == 5)) {
              id = handle.PostFakeMsg(slot);  // queue 3's message of round 1 serves these
            } else {
              Work w{};
              w.head.msgState = CubeMsgState::VALID;
              w.funcId = (r == 1 && q == 3) ? 1 : 0;
              w.skip = w.funcId ? 2 : 0;
              w.n = kN;
              w.src = reinterpret_cast<uint64_t>(src.data());
              w.dst = reinterpret_cast<uint64_t>(dst.data());
              w.served = reinterpret_cast<uint64_t>(served.data());
              w.scale = float(r + 1);
              w.queue = q;
              w.round = r;
              id = handle.PostMessage(slot, w);
            }
            if (!handle.Wait(id)) waits_failed = true;
          }
          handle.SetQuit(handle.AllocMessage());
        },
        3, parallel);
    INFO(msg);
    REQUIRE(msg.empty());
    CHECK_FALSE(waits_failed);
    for (int r = 0; r < kRounds; ++r)
      for (int q = 0; q < kQueues; ++q) {
        INFO("round " << r << " queue " << q);
        const int aic = q < 3 ? 1 : 2;
        CHECK(served[r * kQueues + q] == aic * 100 + 10 + (r == 1 && q > 3 ? 1 : 0));
        for (int j = 0; j < kN; ++j) {
          const size_t at = (size_t(r) * kQueues + q) * kN + j;
          CHECK(dst[at] == src[at] * float(r + 1));
        }
      }
    CHECK(inits == std::vector<int32_t>{0, 1, 1, 0});  // one Init on each of the group's AICs
  }
}

TEST_CASE("CubeResGroupHandle: a launch that cannot finish fails, naming why", "[ascendc]") {
  std::vector<uint8_t> ws(4096, 0);
  std::vector<int32_t> inits(4, 0);
  // Vector block 1 returns without SetQuit: its cube core would wait for ever.
  auto msg = launchMixed(
      [&] {
        KfcWorkspace desc(ws.data());
        auto handle = CreateCubeResGroup<1, Mm, Serve, Work>(
            desc, 0, 2, 2, reinterpret_cast<GM_ADDR>(inits.data()));
        handle.AssignQueue(uint8_t(GetBlockIdx()));
        if (GetBlockIdx() == 1) return;
        handle.SetQuit(handle.AllocMessage());
      },
      1, false);
  CHECK(msg.find("AIC 0") != std::string::npos);
  CHECK(msg.find("each vector block that uses the group must end with SetQuit") !=
        std::string::npos);
  // The group's cube cores past the launch's.
  msg = launchMixed(
      [&] {
        KfcWorkspace desc(ws.data());
        CreateCubeResGroup<1, Mm, Serve, Work>(desc, 2, 4, 4,
                                               reinterpret_cast<GM_ADDR>(inits.data()));
      },
      2, false);
  CHECK(msg.find("past the launch's 2") != std::string::npos);
  // A workspace too small for the group's messages (GmAlloc memory is bounded).
  msg = launchMixed(
      [&] {
        void* small = asc::ascendc::detail::gmAlloc(256);
        KfcWorkspace desc(static_cast<GM_ADDR>(small));
        try {
          CreateCubeResGroup<1, Mm, Serve, Work>(desc, 0, 2, 2,
                                                 reinterpret_cast<GM_ADDR>(inits.data()));
        } catch (...) {
          asc::ascendc::detail::gmFree(small);
          throw;
        }
        asc::ascendc::detail::gmFree(small);
      },
      1, false);
  CHECK(msg.find("only 256 are left in its workspace") != std::string::npos);
}
