// fast_paths_test.cpp: the CPU layer's fast paths: DataCopy's 512-bit copy
// (asc::ascendc::detail::copyBytes) and the vector instructions' 512-bit loops (kernel_vec.h)
// against memmove and the loops compiled for AVX2; the unified-buffer blocks a thread keeps for
// its next launch (ubAlloc/ubFree) start zeroed like new ones.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "kernel_operator.h"
#include "testkit/skip.h"

namespace {

std::vector<uint8_t> pattern(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t((i * 131 + seed * 17 + (i >> 7)) & 0xff);
  return v;
}

}  // namespace

TEST_CASE("copyBytes moves what memmove moves, for any length, offset and overlap", "[ascendc]") {
  using asc::ascendc::detail::copyBytes;
  const size_t sizes[] = {0, 1, 31, 64, 255, 256, 1000, 1023, 1024, 1025, 4113, 8192, 20000};
  for (size_t n : sizes) {
    for (size_t src_off : {0, 3, 64}) {
      for (size_t dst_off : {0, 5, 64}) {
        INFO("n " << n << " src offset " << src_off << " dst offset " << dst_off);
        auto src = pattern(n + 128, 1);
        std::vector<uint8_t> got(n + 128, 0xee), want(n + 128, 0xee);
        copyBytes(got.data() + dst_off, src.data() + src_off, n);
        std::memmove(want.data() + dst_off, src.data() + src_off, n);
        CHECK(got == want);
      }
    }
    // One buffer, the ranges overlapping both ways (a UB-to-UB DataCopy onto itself).
    for (long shift : {-65L, -1L, 1L, 200L}) {
      INFO("n " << n << " overlapping, shift " << shift);
      auto got = pattern(n + 512, 2), want = got;
      copyBytes(got.data() + 256 + shift, got.data() + 256, n);
      std::memmove(want.data() + 256 + shift, want.data() + 256, n);
      CHECK(got == want);
    }
  }
}

#if defined(ASC_VEC_WIDE_LOOPS)
TEST_CASE("the vector instructions' 512-bit loops give the AVX2 loops' bits", "[ascendc]") {
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
      !__builtin_cpu_supports("avx512dq") || !__builtin_cpu_supports("avx512vl"))
    ASC_SKIP("this CPU has no AVX-512 (F, BW, DQ, VL)");
  using namespace AscendC::detail_cpu;
  const int64_t n = 1003;  // a tail after the last 16-lane vector
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = std::ldexp(float((i * 7919) % 2001) - 1000.0f, -7) + 1.0f / 3.0f;
    y[i] = float((i * 104729) % 977) / 97.0f - 4.0f;
  }
  x[5] = NAN;
  x[6] = -0.0f;
  std::vector<float> narrow(n), wide(n);
  auto sameBits = [&] { return std::memcmp(narrow.data(), wide.data(), n * sizeof(float)) == 0; };

  // A multiply and an add that a fused multiply-add would round once: the wide loop must not
  // fuse them (the AVX2 build has no FMA).
  auto mulAdd = [](float a, float b) { return a * 1.1f + b; };
  binaryLoop(narrow.data(), x.data(), y.data(), n, mulAdd);
  binaryLoopWide(wide.data(), x.data(), y.data(), n, mulAdd);
  CHECK(sameBits());
  // The same sum through std::fma differs in some element, so the check above can fail.
  bool fma_differs = false;
  for (int64_t i = 0; i < n; ++i)
    fma_differs |= !std::isnan(x[i]) && std::fma(x[i], 1.1f, y[i]) != narrow[i];
  CHECK(fma_differs);

  auto leaky = [](float a) { return a > 0.0f ? a : a * 0.01f; };
  unaryLoop(narrow.data(), x.data(), n, leaky);
  unaryLoopWide(wide.data(), x.data(), n, leaky);
  CHECK(sameBits());
  auto divide = [](float a, float b) { return a / b; };
  binaryLoop(narrow.data(), x.data(), y.data(), n, divide);
  binaryLoopWide(wide.data(), x.data(), y.data(), n, divide);
  CHECK(sameBits());
  // In place (dst == src), as kernels often write.
  std::vector<float> in_narrow = x, in_wide = x;
  unaryLoop(in_narrow.data(), in_narrow.data(), n, leaky);
  unaryLoopWide(in_wide.data(), in_wide.data(), n, leaky);
  CHECK(std::memcmp(in_narrow.data(), in_wide.data(), n * sizeof(float)) == 0);

  std::vector<int32_t> a(n), b(n), ni(n), wi(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = int32_t(uint32_t(uint64_t(i) * 2654435761u) >> 3) - (1 << 27);
    b[i] = int32_t(i * 40503) - 20000000;
  }
  auto maxI = [](int32_t p, int32_t q) { return p > q ? p : q; };
  binaryLoop(ni.data(), a.data(), b.data(), n, maxI);
  binaryLoopWide(wi.data(), a.data(), b.data(), n, maxI);
  CHECK(ni == wi);
}
#endif

TEST_CASE("vector instructions over long tensors match a naive loop in every lane", "[ascendc]") {
  // kernel_vec.h takes its wide loops from 256 bytes: 1000 floats exercise them (vec_ops_test's
  // 200 floats too), with a tail that no 16-lane vector covers.
  using namespace AscendC;
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bo;
  pipe.InitBuffer(bx, 4096);
  pipe.InitBuffer(by, 4096);
  pipe.InitBuffer(bo, 4096);
  LocalTensor<float> x = bx.Get<float>(), y = by.Get<float>(), out = bo.Get<float>();
  const int32_t n = 1000;
  for (int32_t i = 0; i < n; ++i) {
    x.SetValue(i, float((i * 37) % 101) / 8.0f - 6.0f);
    y.SetValue(i, float((i * 53) % 89) / 16.0f + 0.5f);
  }
  LeakyRelu(out, x, 0.2f, n);
  for (int32_t i = 0; i < n; ++i) {
    const float v = x.GetValue(i);
    INFO("LeakyRelu element " << i);
    CHECK(out.GetValue(i) == (v > 0 ? v : v * 0.2f));
  }
  Div(out, x, y, n);
  for (int32_t i = 0; i < n; ++i) {
    INFO("Div element " << i);
    CHECK(out.GetValue(i) == x.GetValue(i) / y.GetValue(i));
  }
}

TEST_CASE("unified-buffer blocks kept for the next launch start zeroed and aligned", "[ascendc]") {
  using asc::ascendc::detail::ubAlloc;
  using asc::ascendc::detail::ubFree;
  auto zeroed = [](const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    for (size_t i = 0; i < n; ++i)
      if (b[i] != 0) return false;
    return true;
  };
  for (size_t n : {1, 32, 8192, 65536}) {
    INFO("bytes " << n);
    void* a = ubAlloc(n);
    CHECK(reinterpret_cast<uintptr_t>(a) % 64 == 0);
    CHECK(zeroed(a, n));
    std::memset(a, 0x5a, n);
    ubFree(a);
    void* b = ubAlloc(n);  // typically the same block again: zeroed all the same
    CHECK(reinterpret_cast<uintptr_t>(b) % 64 == 0);
    CHECK(zeroed(b, n));
    ubFree(b);
  }
  // More than the thread keeps (1 MiB), and blocks freed on another thread than made them.
  std::vector<void*> many;
  for (int i = 0; i < 40; ++i) {
    many.push_back(ubAlloc(64 * 1024));
    std::memset(many.back(), 0x33, 64 * 1024);
  }
  std::thread([&] {
    for (size_t i = 0; i < many.size() / 2; ++i) ubFree(many[i]);
    void* c = ubAlloc(64 * 1024);
    CHECK(zeroed(c, 64 * 1024));
    ubFree(c);
  }).join();
  for (size_t i = many.size() / 2; i < many.size(); ++i) ubFree(many[i]);
  void* d = ubAlloc(64 * 1024);
  CHECK(zeroed(d, 64 * 1024));
  ubFree(d);
  ubFree(nullptr);
}

TEST_CASE("a queue hands its tensors back in the order they were enqueued, past its size too",
          "[ascendc]") {
  using namespace AscendC;
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> q;
  TQue<QuePosition::VECOUT, 2> other;
  pipe.InitBuffer(q, 2, 64);
  pipe.InitBuffer(other, 2, 64);
  for (int round = 0; round < 3; ++round) {  // the ring wraps
    std::vector<LocalTensor<float>> in;
    for (int i = 0; i < 2; ++i) in.push_back(q.AllocTensor<float>());
    for (int i = 0; i < 2; ++i) in.push_back(other.AllocTensor<float>());
    for (int i = 0; i < 4; ++i) {
      in[size_t(i)].SetValue(0, float(round * 10 + i));
      q.EnQue(in[size_t(i)]);  // four tensors into a queue of two buffers
    }
    CHECK(q.GetTensorCountInQue() == 4);
    for (int i = 0; i < 4; ++i) {
      LocalTensor<float> t = q.DeQue<float>();
      CHECK(t.GetValue(0) == float(round * 10 + i));
      if (i < 2)
        q.FreeTensor(t);
      else
        other.FreeTensor(t);
    }
    CHECK_FALSE(q.HasTensorInQue());
  }
}
