// mask_register_test.cpp: the vector mask register (SetMaskCount / SetMaskNorm, SetVectorMask,
// ResetMask) and the instructions given isSetMask false, which take it instead of their mask
// argument: counter mode runs as many repeats as the count fills (the last one partial), normal
// mode selects the register's bits; each block starts in normal mode with every bit set.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "asc/ascendc/launch.h"
#include "kernel_operator.h"

using namespace AscendC;

namespace {

std::string runK(const std::function<void()>& body, uint32_t blocks = 1) {
  asc::Status st = asc::ascendc::launchKernel("k", blocks, body, {});
  return st.isOk() ? "" : st.message();
}

}  // namespace

TEST_CASE("Counter mode: a reduction over any count, in the repeats the count fills",
          "[ascendc][mask]") {
  for (uint32_t n : {1u, 63u, 64u, 100u, 1000u}) {
    float whole = 0, twice = 0;
    std::vector<float> blocks;
    auto msg = runK([&] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, 4096 * sizeof(float));
      LocalTensor<float> x = buf.Get<float>(2048), t = buf.Get<float>()[2048];
      for (uint32_t i = 0; i < 2048; ++i) x.SetValue(i, i < n ? float(i % 7) : 1000.f);
      SetMaskCount();
      // One sum per repeat of 64, the last over what is left; then their sum.
      SetVectorMask<float>(0, n);
      WholeReduceSum<float, false>(t, x, MASK_PLACEHOLDER, 1, 1, 1, 8);
      const uint32_t repeats = (n + 63) / 64;
      SetVectorMask<float>(0, repeats);
      WholeReduceSum<float, false>(t[1024], t, MASK_PLACEHOLDER, 1, 1, 1, 8);
      twice = t.GetValue(1024);
      // One sum per 32-byte block of 8, the last partial.
      SetVectorMask<float>(0, n);
      BlockReduceSum<float, false>(t[1100], x, 1, MASK_PLACEHOLDER, 1, 1, 8);
      for (uint32_t b = 0; b < (n + 7) / 8; ++b) blocks.push_back(t.GetValue(1100 + b));
      SetMaskNorm();
      ResetMask();
      whole = 0;
      for (uint32_t i = 0; i < n; ++i) whole += float(i % 7);
    });
    INFO("n " << n);
    REQUIRE(msg.empty());
    CHECK(twice == whole);  // small whole numbers: exact in any order
    REQUIRE(blocks.size() == (n + 7) / 8);
    for (uint32_t b = 0; b < blocks.size(); ++b) {
      float want = 0;
      for (uint32_t i = b * 8; i < std::min(n, b * 8 + 8); ++i) want += float(i % 7);
      CHECK(blocks[b] == want);
    }
  }
}

TEST_CASE("Counter mode: an element-wise instruction writes the count and nothing past it",
          "[ascendc][mask]") {
  std::vector<float> sum, scaled;
  auto msg = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * 256 * sizeof(float));
    LocalTensor<float> d = buf.Get<float>(256), a = buf.Get<float>()[256],
                       b = buf.Get<float>()[512], e = buf.Get<float>()[768];
    for (int i = 0; i < 256; ++i) {
      d.SetValue(i, -1.f);
      e.SetValue(i, -1.f);
      a.SetValue(i, float(i));
      b.SetValue(i, 0.5f);
    }
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(150);  // the len form: 150 elements, 3 repeats
    Add<float, false>(d, a, b, MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
    SetVectorMask<float>(0, 70);
    Muls<float, false>(e, a, 2.f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
    SetMaskNorm();
    for (int i = 0; i < 256; ++i) {
      sum.push_back(d.GetValue(i));
      scaled.push_back(e.GetValue(i));
    }
  });
  REQUIRE(msg.empty());
  for (int i = 0; i < 256; ++i) {
    INFO("element " << i);
    CHECK(sum[i] == (i < 150 ? float(i) + 0.5f : -1.f));
    CHECK(scaled[i] == (i < 70 ? float(i) * 2.f : -1.f));
  }
}

TEST_CASE("Normal mode: the register's bits select, and each block starts with all of them",
          "[ascendc][mask]") {
  std::vector<std::vector<float>> got(2);
  auto msg = runK(
      [&] {
        const int64_t blk = GetBlockIdx();
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * 128 * sizeof(float));
        LocalTensor<float> d = buf.Get<float>(128), a = buf.Get<float>()[128];
        for (int i = 0; i < 128; ++i) {
          d.SetValue(i, -1.f);
          a.SetValue(i, float(i));
        }
        // Block 0 leaves only every other element selected; block 1, run after it on the same
        // thread or another, must see the full mask.
        if (blk == 0) SetVectorMask<float>(0, 0x5555555555555555ull);
        Adds<float, false>(d, a, 1.f, MASK_PLACEHOLDER, 2, {1, 1, 8, 8});
        for (int i = 0; i < 128; ++i) got[blk].push_back(d.GetValue(i));
      },
      2);
  REQUIRE(msg.empty());
  for (int i = 0; i < 128; ++i) {
    CHECK(got[0][i] == (i % 2 == 0 ? float(i) + 1.f : -1.f));
    CHECK(got[1][i] == float(i) + 1.f);
  }
  // The len form in normal mode: the first len elements of each repeat.
  std::vector<float> first;
  msg = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 128 * sizeof(float));
    LocalTensor<float> d = buf.Get<float>(128), a = buf.Get<float>()[128];
    for (int i = 0; i < 128; ++i) {
      d.SetValue(i, -1.f);
      a.SetValue(i, float(i));
    }
    SetVectorMask<float>(10);
    Duplicate<float, false>(d, 7.f, MASK_PLACEHOLDER, 2, 1, 8);
    for (int i = 0; i < 128; ++i) first.push_back(d.GetValue(i));
  });
  REQUIRE(msg.empty());
  for (int i = 0; i < 128; ++i) CHECK(first[i] == (i % 64 < 10 ? 7.f : -1.f));
}

TEST_CASE("The mask register's misuse is named", "[ascendc][mask]") {
  CHECK(runK([] {
          TPipe pipe;
          TBuf<TPosition::VECCALC> buf;
          pipe.InitBuffer(buf, 256 * sizeof(float));
          LocalTensor<float> d = buf.Get<float>();
          SetVectorMask<float>(0, 0);
          Adds<float, false>(d, d, 1.f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
        }).find("the mask register (SetVectorMask) selects no element") != std::string::npos);
  CHECK(runK([] { SetVectorMask<float>(65); }).find("more than the 64 elements") !=
        std::string::npos);
  // A count past the tensor is an out-of-bounds access, as any other.
  CHECK(runK([] {
          TPipe pipe;
          TBuf<TPosition::VECCALC> buf;
          pipe.InitBuffer(buf, 128 * sizeof(float));
          LocalTensor<float> d = buf.Get<float>();
          SetMaskCount();
          SetVectorMask<float>(0, 129);
          Adds<float, false>(d, d, 1.f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
        }).find("Adds") != std::string::npos);
  // With isSetMask true (the default), MASK_PLACEHOLDER is a mask of 0: refused.
  CHECK(runK([] {
          TPipe pipe;
          TBuf<TPosition::VECCALC> buf;
          pipe.InitBuffer(buf, 256 * sizeof(float));
          LocalTensor<float> d = buf.Get<float>();
          Adds(d, d, 1.f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
        }).find("mask 0 is outside 1..64") != std::string::npos);
}
