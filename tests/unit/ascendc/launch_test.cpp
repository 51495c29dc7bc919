// launch_test.cpp: launchKernel (block index and count, sequential and parallel, the first
// error) and every check the CPU layer makes, each naming the kernel, the block and the call.
#include <catch2/catch.hpp>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <atomic>
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
#include "tikicpulib.h"

using namespace AscendC;
using asc::ascendc::launchKernel;
using asc::ascendc::LaunchOptions;

namespace {

/// Runs `body` on `blocks` blocks; the error message ("" when OK).
std::string run(const std::function<void()>& body, uint32_t blocks = 1,
                const LaunchOptions& opt = {}) {
  asc::Status st = launchKernel("k", blocks, body, opt);
  if (st.isOk()) return "";
  CHECK(st.code() == asc::ErrorCode::KernelCheckFailed);
  return st.message();
}

bool has(const std::string& text, const std::string& part) {
  INFO("message: " << text);
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("launchKernel runs every block with its index", "[ascendc]") {
  for (bool parallel : {false, true}) {
    std::mutex mu;
    std::multiset<int64_t> seen;
    std::atomic<int> wrong_num{0};
    LaunchOptions opt;
    opt.parallel = parallel;
    asc::Status st = launchKernel(
        "blocks", 37,
        [&] {
          if (GetBlockNum() != 37) ++wrong_num;
          std::lock_guard<std::mutex> lock(mu);
          seen.insert(GetBlockIdx());
        },
        opt);
    CHECK(st.isOk());
    CHECK(wrong_num == 0);
    REQUIRE(seen.size() == 37);
    for (int64_t b = 0; b < 37; ++b) CHECK(seen.count(b) == 1);
  }
  CHECK(GetBlockIdx() == 0);  // outside a launch
  CHECK(GetBlockNum() == 1);
}

TEST_CASE("a launch runs on the calling thread's OpenMP count, every block below a failure too",
          "[ascendc]") {
  // One OpenMP thread: every block on the calling thread, in index order.
  std::thread([] {
    omp_set_num_threads(1);
    std::vector<int64_t> order;
    std::set<std::thread::id> threads;
    CHECK(launchKernel("k", 6, [&] {
            order.push_back(GetBlockIdx());
            threads.insert(std::this_thread::get_id());
          }).isOk());
    CHECK(order == std::vector<int64_t>{0, 1, 2, 3, 4, 5});
    CHECK(threads.size() == 1);
    CHECK(threads.count(std::this_thread::get_id()) == 1);
  }).join();
  // Two: block 6 (the second thread's) fails at once, block 1 later; both runs of blocks below
  // the lowest failure still run, and the error is block 1's every time.
  std::thread([] {
    omp_set_num_threads(2);
    for (int attempt = 0; attempt < 3; ++attempt) {
      std::mutex mu;
      std::set<int64_t> ran;
      asc::Status st = launchKernel("k", 8, [&] {
        const int64_t b = GetBlockIdx();
        {
          std::lock_guard<std::mutex> lock(mu);
          ran.insert(b);
        }
        if (b == 6) asc::ascendc::detail::fail("DataCopy", "six");
        if (b == 1) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          asc::ascendc::detail::fail("DataCopy", "one");
        }
      });
      CHECK(st.message() == "kernel 'k' block 1: DataCopy: one");
      for (int64_t b = 0; b <= 1; ++b) CHECK(ran.count(b) == 1);
      CHECK(ran.count(7) == 0);  // above a failure that happened first: never started
    }
  }).join();
}

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

TEST_CASE("launchKernel reports the lowest failed block and rejects bad arguments", "[ascendc]") {
  for (bool parallel : {false, true}) {
    LaunchOptions opt;
    opt.parallel = parallel;
    asc::Status st = launchKernel(
        "add_custom", 8,
        [] {
          if (GetBlockIdx() >= 3) asc::ascendc::detail::fail("DataCopy", "broken");
        },
        opt);
    REQUIRE_FALSE(st.isOk());
    CHECK(st.message() == "kernel 'add_custom' block 3: DataCopy: broken");
    CHECK(asc::ascendc::lastLaunchStatus().message() == st.message());
  }
  CHECK(launchKernel("k", 0, [] {}).code() == asc::ErrorCode::InvalidParam);
  LaunchOptions bad_soc;
  bad_soc.soc = "Ascend42";
  asc::Status st = launchKernel(
      "k", 1, [] {}, bad_soc);
  CHECK(st.code() == asc::ErrorCode::InvalidParam);
  CHECK(has(st.message(), "Ascend910B1"));
  CHECK(has(run([] { throw std::runtime_error("boom"); }), "the kernel threw: boom"));
  CHECK(launchKernel("k", 2, [] {}).isOk());
  CHECK(asc::ascendc::lastLaunchStatus().isOk());
}

TEST_CASE("a LocalTensor used after FreeTensor is an error", "[ascendc]") {
  auto msg = run([] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    q.FreeTensor(t);
    Adds(t, t, 1.0f, 64);
  });
  CHECK(has(msg, "kernel 'k' block 0: Adds: LocalTensor 'dst' was already released by FreeTensor"));

  // A stale copy stays stale after its buffer is allocated again.
  msg = run([] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    LocalTensor<float> copy = t;
    q.FreeTensor(t);
    LocalTensor<float> again = q.AllocTensor<float>();
    GlobalTensor<float> g;
    static float gm[64];
    g.SetGlobalBuffer(gm, 64);
    DataCopy(g, copy, 64);
    (void)again;
  });
  CHECK(has(msg, "DataCopy: LocalTensor 'src' was already released by FreeTensor"));

  msg = run([] {
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<half> t = q.AllocTensor<half>();
    q.FreeTensor(t);
    q.FreeTensor(t);
  });
  CHECK(has(msg, "FreeTensor: LocalTensor 'tensor' was already released by FreeTensor"));
}

TEST_CASE("DeQue on an empty queue is an error", "[ascendc]") {
  auto msg = run(
      [] {
        TPipe pipe;
        TQue<QuePosition::VECIN, 2> q;
        pipe.InitBuffer(q, 2, 256);
        LocalTensor<half> t = q.AllocTensor<half>();
        q.EnQue(t);
        q.DeQue<half>();
        q.DeQue<half>();
      },
      4);
  CHECK(has(msg, "kernel 'k' block 0: DeQue: the queue is empty"));
}

TEST_CASE("AllocTensor beyond the queue's buffer count is an error", "[ascendc]") {
  auto msg = run([] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 256);
    q.AllocTensor<half>();
    q.AllocTensor<half>();
    q.AllocTensor<half>();
  });
  CHECK(has(msg, "AllocTensor: all 2 buffers of the queue are in use"));
}

TEST_CASE("TPipe buffers beyond the chip's unified buffer are an error", "[ascendc]") {
  auto body = [] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> a;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(a, 2, 64 * 1024);  // 128 KiB
    pipe.InitBuffer(b, 100 * 1024);    // 228 KiB in all
  };
  auto msg = run(body);
  CHECK(has(msg, "InitBuffer: 1 buffer(s) of 102400 bytes"));
  CHECK(has(msg, "233472 bytes, more than the 196608-byte unified buffer of Ascend910B1"));
  LaunchOptions p3;
  p3.soc = "Ascend310P3";  // 256 KiB
  CHECK(run(body, 1, p3) == "");
}

TEST_CASE("DataCopy between GM and UB must move whole 32-byte blocks", "[ascendc]") {
  static half gm[64];
  auto msg = run(
      [] {
        TPipe pipe;
        TQue<QuePosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, 128);
        GlobalTensor<half> g;
        g.SetGlobalBuffer(gm, 64);
        LocalTensor<half> t = q.AllocTensor<half>();
        if (GetBlockIdx() == 2) DataCopy(t, g, 15);
        DataCopy(t, g, 16);
      },
      4);
  CHECK(msg ==
        "kernel 'k' block 2: DataCopy: length 30 bytes is not a multiple of 32 bytes (15 "
        "elements of 2 bytes); the NPU moves global memory in 32-byte blocks (use DataCopyPad "
        "for other lengths)");
}

TEST_CASE("GlobalTensor accesses past its memory are errors", "[ascendc]") {
  static float gm[256];
  auto msg = run([] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm, 200);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, g[192], 16);
  });
  CHECK(has(msg,
            "DataCopy: accesses global elements [0, 16) of a GlobalTensor whose memory holds 8 "
            "elements"));

  msg = run([] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm, 200);
    g.SetValue(200, 1.0f);
  });
  CHECK(has(msg, "SetValue: accesses global elements [200, 201)"));

  // Without a size, GmAlloc's allocation bounds the tensor.
  void* p = AscendC::GmAlloc(64 * sizeof(float));
  msg = run([p] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(static_cast<float*>(p));
    CHECK(g.GetSize() == 64);
    g.GetValue(64);
  });
  CHECK(has(msg,
            "GetValue: accesses global elements [64, 65) of a GlobalTensor whose memory holds 64"));

  // As on an NPU, a size smaller than GmAlloc's allocation does not bound the accesses: a whole
  // 32-byte unit may be read from an 11-element tensor (the "unaligned" samples do).
  msg = run([p] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(static_cast<float*>(p), 11);
    CHECK(g.GetSize() == 11);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, g, 16);
    DataCopy(t, g[48], 16);
  });
  CHECK(msg == "");
  msg = run([p] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(static_cast<float*>(p), 11);
    g.GetValue(64);
  });
  CHECK(has(msg,
            "GetValue: accesses global elements [64, 65) of a GlobalTensor whose memory "
            "holds 64 elements"));
  AscendC::GmFree(p);
}

TEST_CASE("a count beyond a LocalTensor is an error", "[ascendc]") {
  auto msg = run([] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 256);
    pipe.InitBuffer(b, 512);
    LocalTensor<float> x = a.Get<float>(), y = b.Get<float>();
    Add(y, y, x, 100);
  });
  CHECK(has(msg, "Add: count 100 exceeds LocalTensor 'src1' (64 elements of 4 bytes"));
  msg = run([] {
    LocalTensor<float> never;
    Relu(never, never, 8);
  });
  CHECK(has(msg, "Relu: LocalTensor 'dst' was never allocated"));
}

TEST_CASE("DataCopyPad copies any byte length with 32-byte UB rows", "[ascendc]") {
  void* mem = AscendC::GmAlloc(64 * sizeof(half));
  auto* gm = static_cast<half*>(mem);
  for (int i = 0; i < 64; ++i) gm[i] = half(float(i));
  auto msg = run([gm] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<half> t = buf.Get<half>();
    GlobalTensor<half> g;
    g.SetGlobalBuffer(gm, 64);
    // One block of 15 halves (30 bytes), padded with -1 to the 32-byte row.
    DataCopyExtParams one{1, 30, 0, 0, 0};
    DataCopyPadExtParams<half> pad{true, 0, 1, half(-1.0f)};
    DataCopyPad(t, g[3], one, pad);
    for (int i = 0; i < 15; ++i) CHECK(float(t.GetValue(i)) == float(i + 3));
    CHECK(float(t.GetValue(15)) == -1.0f);
    // Back out: 15 elements to gm[40..55), nothing else touched.
    Muls(t, t, half(2.0f), 16);
    DataCopyPad(g[40], t, one);
    // Two blocks of 5 elements, 6 elements apart in GM: UB rows start at 0 and 16.
    DataCopyExtParams two{2, 10, 2, 0, 0};
    DataCopyPad(t, g[0], two, DataCopyPadExtParams<half>{false, 0, 0, half(0.0f)});
    CHECK(float(t.GetValue(4)) == 4.0f);
    CHECK(float(t.GetValue(16)) == 6.0f);
    CHECK(float(t.GetValue(20)) == 10.0f);
  });
  CHECK(msg == "");
  for (int i = 0; i < 15; ++i) CHECK(float(gm[40 + i]) == float(2 * (i + 3)));
  CHECK(float(gm[55]) == 55.0f);
  CHECK(float(gm[39]) == 39.0f);
  AscendC::GmFree(mem);
}

TEST_CASE("ICPU_RUN_KF launches a lambda and keeps its error", "[ascendc]") {
  void* mem = AscendC::GmAlloc(32 * sizeof(float));
  auto kernel = [](GM_ADDR out) {
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)out + GetBlockIdx() * 8, 8);
    g.SetValue(0, float(GetBlockIdx() + 1));
    if (TILING_KEY_IS(7)) g.SetValue(1, 7.0f);
  };
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_SET_TILING_KEY(7);
  ICPU_RUN_KF(kernel, 4, (GM_ADDR)mem);
  CHECK(asc::ascendc::lastLaunchStatus().isOk());
  auto* f = static_cast<float*>(mem);
  for (int b = 0; b < 4; ++b) {
    CHECK(f[b * 8] == float(b + 1));
    CHECK(f[b * 8 + 1] == 7.0f);
  }
  ICPU_SET_TILING_KEY(0);
  auto broken = [](GM_ADDR out) {
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)out, 8);
    g.SetValue(32, 0.0f);  // past the 32 floats GmAlloc gave
  };
  asc::log::setLevel(asc::log::Level::Null);  // ICPU_RUN_KF prints the error; keep the test quiet
  ICPU_RUN_KF(broken, 2, (GM_ADDR)mem);
  asc::log::setLevel(asc::log::Level::Warning);
  CHECK(asc::ascendc::lastLaunchStatus().message() ==
        "kernel 'broken' block 0: SetValue: accesses global elements [32, 33) of a GlobalTensor "
        "whose memory holds 32 elements");
  AscendC::GmFree(mem);
}

TEST_CASE("queue misuse: EnQue twice, FreeTensor on another queue or while enqueued", "[ascendc]") {
  auto twice = run([] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    q.EnQue(t);
    q.EnQue(t);
  });
  CHECK(has(twice, "EnQue: the tensor is already in a queue"));
  auto other = run([] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> a;
    TQue<QuePosition::VECOUT, 1> b;
    pipe.InitBuffer(a, 1, 256);
    pipe.InitBuffer(b, 1, 256);
    LocalTensor<float> t = a.AllocTensor<float>();
    b.FreeTensor(t);
  });
  CHECK(has(other, "FreeTensor: the tensor belongs to another TQue"));
  auto queued = run([] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    q.EnQue(t);
    q.FreeTensor(t);
  });
  CHECK(has(queued, "FreeTensor: the tensor is still in a queue"));
}

TEST_CASE("outside a launch a broken rule throws KernelError", "[ascendc]") {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  try {
    q.DeQue<float>();
    FAIL("DeQue on an empty queue did not throw");
  } catch (const asc::ascendc::KernelError& e) {
    CHECK(e.call() == "DeQue");
    CHECK(has(e.what(), "DeQue: the queue is empty"));
  }
}

TEST_CASE("a tiling key that no TILING_KEY_IS branch takes stops the launch and names the key",
          "[ascendc]") {
  for (bool parallel : {false, true}) {
    std::atomic<int> one{0}, two{0};
    auto body = [&] {
      if (TILING_KEY_IS(1))
        ++one;
      else if (TILING_KEY_IS(2))
        ++two;
    };
    LaunchOptions opt;
    opt.parallel = parallel;
    opt.tiling_key = 2;
    CHECK(run(body, 4, opt).empty());
    CHECK(two == 4);
    CHECK(one == 0);
    opt.tiling_key = 3;  // an NPU has no kernel binary for a key no branch names
    const std::string msg = run(body, 4, opt);
    CHECK(has(msg, "kernel 'k': tiling key 3 matches no TILING_KEY_IS branch"));
    CHECK(has(msg, "SetTilingKey"));
  }
  // A kernel that never tests the key runs with any key.
  LaunchOptions opt;
  opt.tiling_key = 9;
  CHECK(run([] {}, 2, opt).empty());
}

TEST_CASE("atomic copies to global memory add, max and min across blocks", "[ascendc]") {
  for (bool parallel : {false, true}) {
    void* mem = AscendC::GmAlloc(8 * sizeof(float));
    auto body = [mem](int mode) {
      return [mem, mode] {
        TPipe pipe;
        TQue<QuePosition::VECOUT, 1> q;
        pipe.InitBuffer(q, 1, 32);
        LocalTensor<float> t = q.AllocTensor<float>();
        for (int i = 0; i < 8; ++i) t.SetValue(i, float(GetBlockIdx() + 1) * (i % 2 ? -1.f : 1.f));
        GlobalTensor<float> g;
        g.SetGlobalBuffer((__gm__ float*)mem, 8);
        if (mode == 1) SetAtomicAdd<float>();
        if (mode == 2) SetAtomicMax<float>();
        DataCopy(g, t, 8);
        SetAtomicNone();
        q.FreeTensor(t);
      };
    };
    LaunchOptions opt;
    opt.parallel = parallel;
    auto* f = static_cast<float*>(mem);
    CHECK(run(body(1), 4, opt).empty());  // 1 + 2 + 3 + 4 onto zeros
    CHECK(f[0] == 10.f);
    CHECK(f[1] == -10.f);
    std::memset(mem, 0, 32);
    CHECK(run(body(2), 4, opt).empty());
    CHECK(f[0] == 4.f);
    CHECK(f[1] == 0.f);  // max(0, -1, -2, -3, -4)
    AscendC::GmFree(mem);
  }
}

TEST_CASE("Axpy, workspaces and ASSERT", "[ascendc]") {
  auto ok = run([] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    LocalTensor<float> a = buf.Get<float>(8);
    LocalTensor<float> b = buf.Get<float>()[8];
    for (int i = 0; i < 8; ++i) {
      a.SetValue(i, float(i));
      b.SetValue(i, 1.f);
    }
    Axpy(b, a, 0.5f, 8);  // b = a * 0.5 + b
    ASSERT(b.GetValue(4) == 3.f);
    uint8_t ws[32];
    ASSERT(GetUserWorkspace(ws) == ws);
    SetSysWorkspace(ws);
    ASSERT(GetSysWorkspacePtr() == ws);
  });
  CHECK(ok.empty());
  auto failed = run([] { ASSERT(GetBlockIdx() == 7); }, 2);
  CHECK(has(failed, "kernel 'k' block 0: ASSERT: GetBlockIdx() == 7 is false at"));
  CHECK(has(failed, "launch_test.cpp:"));
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

TEST_CASE("ListTensorDesc reads a list of tensors passed as one argument", "[ascendc]") {
  float x[6] = {1, 2, 3, 4, 5, 6}, y[3] = {7, 8, 9};
  // offset of the pointers; tensor 0: rank 2, index 0, dims 2 x 3; tensor 1: rank 1, index 1,
  // dim 3; the two data pointers.
  uint64_t list[] = {
      6 * 8, 2, 2, 3, (uint64_t(1) << 32) | 1, 3, uint64_t(uintptr_t(x)), uint64_t(uintptr_t(y))};
  std::vector<uint64_t> got;
  auto st = asc::ascendc::launchKernel("k", 1, [&] {
    ListTensorDesc l(list, sizeof(list), 2);
    uint64_t dims[2] = {};
    TensorDesc<float> d;
    d.SetShapeAddr(dims);
    l.GetDesc(d, 1);
    got = {l.GetSize(), d.GetDim(), d.GetIndex(), d.GetShape(0)};
    got.push_back(d.GetDataPtr() == y);
    l.GetDesc(d, 0);
    got.push_back(d.GetShape(0) * d.GetShape(1));
    got.push_back(l.GetDataPtr<float>(0) == x);
    l.GetDataPtr<float>(2);
  });
  CHECK(got == std::vector<uint64_t>{2, 1, 1, 3, 1, 6, 1});
  CHECK(st.message().find("ListTensorDesc::GetDataPtr: tensor 2 is outside the list of 2") !=
        std::string::npos);
  auto shortList = asc::ascendc::launchKernel("k", 1, [&] {
    ListTensorDesc l(list, 40, 2);  // cut before the pointers
    l.GetDataPtr<float>(0);
  });
  CHECK(shortList.message().find("reads byte 48 of a list of 40 bytes") != std::string::npos);
}
