// kernel_checks_test.cpp: every check the CPU layer makes on queues, tensors and copies, each
// naming the kernel, the block and the call.
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

TEST_CASE("DataCopy to GM may read on into its queue's next buffers, not past them", "[ascendc]") {
  // A queue's buffers lie one after another, as in an NPU's UB: a copy out of the first buffer
  // that counts two buffers' elements copies the second's too (with a warning), as the NPU's DMA
  // does; one that runs past the queue's last buffer, or out of a TBuf, stops the kernel.
  std::vector<float> gm(64, -1);
  auto msg = run([&] {
    TPipe pipe;
    TQue<QuePosition::VECOUT, 2> q;
    pipe.InitBuffer(q, 2, 128);
    LocalTensor<float> t0 = q.AllocTensor<float>(), t1 = q.AllocTensor<float>();
    Duplicate(t0, 1.0f, 32);
    Duplicate(t1, 2.0f, 32);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm.data(), 64);
    DataCopy(g, t0, 64);
  });
  REQUIRE(msg.empty());
  for (int i = 0; i < 64; ++i) CHECK(gm[i] == (i < 32 ? 1.0f : 2.0f));
  msg = run([&] {
    TPipe pipe;
    TQue<QuePosition::VECOUT, 2> q;
    pipe.InitBuffer(q, 2, 128);
    LocalTensor<float> t0 = q.AllocTensor<float>(), t1 = q.AllocTensor<float>();
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm.data(), 64);
    DataCopy(g, t1, 64);
  });
  CHECK(has(msg, "DataCopy: count 64 exceeds LocalTensor 'src' (32 elements of 4 bytes"));
  msg = run([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 128);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm.data(), 64);
    DataCopy(g, a.Get<float>(), 64);
  });
  CHECK(has(msg, "DataCopy: count 64 exceeds LocalTensor 'src' (32 elements of 4 bytes"));
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
