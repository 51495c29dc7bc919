// launch_test.cpp: launchKernel (block index and count, sequential and parallel, the calling
// thread's OpenMP count, the lowest failure), ICPU_RUN_KF, tiling keys, atomic copies,
// workspaces and list tensors.
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
