// vec_repeat_test.cpp: the mask-and-repeat forms of the vector instructions against a naive
// reference of the addressing rule (kernel_vec_repeat.h): which elements each repeat touches,
// with count and bit masks, block and repeat strides, and the bounds check.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "asc/ascendc/launch.h"
#include "kernel_operator.h"

using namespace AscendC;

namespace {

std::string runK(const std::function<void()>& body) {
  asc::Status st = asc::ascendc::launchKernel("k", 1, body, {});
  return st.isOk() ? "" : st.message();
}

// The element offset of element e of repeat r (strides in 32-byte blocks), float.
size_t offsetOf(size_t r, size_t e, size_t blk, size_t rep) {
  return (r * rep + (e / 8) * blk) * 8 + e % 8;
}

}  // namespace

TEST_CASE("Add with a count mask and strides touches exactly the selected elements", "[ascendc]") {
  for (auto [mask, repeat, dblk, sblk, drep, srep] :
       std::vector<std::tuple<uint64_t, uint8_t, uint8_t, uint8_t, uint8_t, uint8_t>>{
           {64, 2, 1, 1, 8, 8}, {20, 3, 1, 1, 8, 8}, {64, 2, 2, 1, 16, 8}, {13, 4, 1, 2, 4, 16}}) {
    std::vector<float> got, want;
    auto msg =
        runK([&, mask = mask, repeat = repeat, dblk = dblk, sblk = sblk, drep = drep, srep = srep] {
          TPipe pipe;
          TBuf<TPosition::VECCALC> buf;
          pipe.InitBuffer(buf, 3 * 1024 * sizeof(float));
          LocalTensor<float> d = buf.Get<float>(1024), a = buf.Get<float>()[1024],
                             b = buf.Get<float>()[2048];
          for (int i = 0; i < 1024; ++i) {
            d.SetValue(i, -1.f);
            a.SetValue(i, float(i));
            b.SetValue(i, 1000.f);
          }
          Add(d, a, b, mask, repeat, BinaryRepeatParams(dblk, sblk, sblk, drep, srep, srep));
          want.assign(1024, -1.f);
          for (size_t r = 0; r < repeat; ++r)
            for (size_t e = 0; e < mask; ++e)
              want[offsetOf(r, e, dblk, drep)] = float(offsetOf(r, e, sblk, srep)) + 1000.f;
          for (int i = 0; i < 1024; ++i) got.push_back(d.GetValue(i));
        });
    INFO("mask " << mask << " repeat " << int(repeat));
    CHECK(msg.empty());
    CHECK(got == want);
  }
}

TEST_CASE("a bit mask selects elements, for half and float", "[ascendc]") {
  std::vector<float> got;
  auto msg = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<half> d = buf.Get<half>(128), s = buf.Get<half>()[128];
    for (int i = 0; i < 128; ++i) {
      d.SetValue(i, half(0.f));
      s.SetValue(i, half(float(i)));
    }
    const uint64_t mask[2] = {0x5ull, 0x1ull << 63};  // elements 0, 2 and 127
    Muls(d, s, 2.0f, mask, 1, UnaryRepeatParams());
    for (int i = 0; i < 128; ++i) got.push_back(float(d.GetValue(i)));
  });
  CHECK(msg.empty());
  std::vector<float> want(128, 0.f);
  want[2] = 4.f;
  want[127] = 254.f;
  CHECK(got == want);
  // Four-byte elements: a repeat holds 64, the mask is mask[0] alone (a one-element array).
  std::vector<float> f;
  auto ok = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<float> d = buf.Get<float>(64);
    for (int i = 0; i < 64; ++i) d.SetValue(i, -1.f);
    const uint64_t mask[1] = {1ull << 63};
    Relu(d, d, mask, 1, UnaryRepeatParams());
    for (int i = 0; i < 64; ++i) f.push_back(d.GetValue(i));
  });
  CHECK(ok.empty());
  CHECK(f[63] == 0.f);
  CHECK(f[62] == -1.f);
  auto none = runK([] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<float> d = buf.Get<float>(64);
    const uint64_t mask[2] = {0, 0};
    Relu(d, d, mask, 1, UnaryRepeatParams());
  });
  CHECK(none.find("Relu: the bit mask selects no element") != std::string::npos);
}

TEST_CASE("repeat forms check masks and bounds before writing", "[ascendc]") {
  auto tooWide = runK([] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<float> d = buf.Get<float>(128);
    Adds(d, d, 1.0f, 65, 1, UnaryRepeatParams());
  });
  CHECK(tooWide.find("Adds: mask 65 is outside 1..64") != std::string::npos);
  auto past = runK([] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);  // 128 floats: two repeats fit, three do not
    LocalTensor<float> d = buf.Get<float>(128);
    Duplicate(d, 1.0f, 64, 3, 1, 8);
  });
  CHECK(past.find("Duplicate: count 192 exceeds LocalTensor 'dst' (128 elements") !=
        std::string::npos);
  std::vector<float> got;
  auto ok = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<float> d = buf.Get<float>(128);
    Duplicate(d, 0.0f, 64, 2, 1, 8);
    Duplicate(d, 3.0f, 8, 2, 1, 8);  // the first block of each repeat
    Exp(d, d, 8, 1, UnaryRepeatParams());
    for (int i = 0; i < 128; ++i) got.push_back(d.GetValue(i));
  });
  CHECK(ok.empty());
  CHECK(got[0] == Approx(std::exp(3.0f)));
  CHECK(got[8] == 0.f);
  CHECK(got[64] == 3.f);
}

TEST_CASE("WholeReduceSum, BlockReduceSum/Max and PairReduceSum per repeat", "[ascendc]") {
  std::vector<float> whole, block, bmax, pair;
  auto msg = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> s = buf.Get<float>(256), d = buf.Get<float>()[256];
    for (int i = 0; i < 256; ++i) s.SetValue(i, float(i % 13) - 6.f);
    WholeReduceSum(d, s, 64, 3, 1, 1, 8);  // one sum per repeat of 64
    for (int r = 0; r < 3; ++r) whole.push_back(d.GetValue(r));
    BlockReduceSum(d, s, 2, 64, 1, 1, 8);  // 8 sums per repeat
    for (int i = 0; i < 16; ++i) block.push_back(d.GetValue(i));
    BlockReduceMax(d, s, 1, 20, 1, 1, 8);  // blocks 0, 1 whole, block 2 elements 16..19
    for (int i = 0; i < 8; ++i) bmax.push_back(d.GetValue(i));
    PairReduceSum(d, s, 1, 64, 1, 1, 8);  // 32 pair sums
    for (int i = 0; i < 32; ++i) pair.push_back(d.GetValue(i));
  });
  REQUIRE(msg.empty());
  auto src = [](int i) { return float(i % 13) - 6.f; };
  for (int r = 0; r < 3; ++r) {
    float want = 0;
    for (int i = 0; i < 64; ++i) want += src(r * 64 + i);
    CHECK(whole[r] == want);  // small integers: exact in any order
  }
  for (int k = 0; k < 16; ++k) {
    float want = 0;
    for (int i = 0; i < 8; ++i) want += src(k * 8 + i);
    CHECK(block[k] == want);
  }
  for (int b = 0; b < 3; ++b) {
    float want = -1e9f;
    for (int i = b * 8; i < std::min(b * 8 + 8, 20); ++i) want = std::max(want, src(i));
    CHECK(bmax[b] == want);
  }
  for (int b = 3; b < 8; ++b) CHECK(bmax[b] == 0.f);  // no element of these blocks selected
  for (int k = 0; k < 32; ++k) CHECK(pair[k] == src(2 * k) + src(2 * k + 1));
}

TEST_CASE("a half pair sum saturates at 65504 instead of overflowing", "[ascendc]") {
  float got = 0;
  auto msg = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<half> s = buf.Get<half>(128), d = buf.Get<half>()[128];
    for (int i = 0; i < 128; ++i) s.SetValue(i, half(0.f));
    s.SetValue(0, half(60000.f));
    s.SetValue(1, half(60000.f));
    PairReduceSum(d, s, 1, 128, 1, 1, 8);
    got = float(d.GetValue(0));
  });
  CHECK(msg.empty());
  CHECK(got == 65504.f);
}

TEST_CASE("ReduceMin/Max/Sum's mask-and-repeat forms reduce the masked elements of every repeat",
          "[ascendc]") {
  // half: 128 elements per repeat; repeats 16 blocks (256 halves) apart; a bit mask picking
  // elements 0-3 and 100; a count mask of 5.
  std::vector<float> got;
  auto msg = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    LocalTensor<half> s = buf.Get<half>(1024), d = buf.Get<half>()[1024], w = buf.Get<half>()[1056];
    for (int i = 0; i < 1024; ++i) s.SetValue(i, half(float((i * 37) % 101) - 50.f));
    s.SetValue(256 + 100, half(-60.f));  // the minimum, in repeat 1 at masked element 100
    s.SetValue(512 + 5, half(-70.f));    // smaller, but element 5 is not masked
    uint64_t bits[2] = {0xF, uint64_t(1) << (100 - 64)};
    ReduceMin<half>(d, s, w, bits, 3, 16, true);
    got.push_back(float(d.GetValue(0)));
    uint16_t idx = 0;
    half v = d.GetValue(1);
    std::memcpy(&idx, &v, 2);
    got.push_back(idx);
    ReduceMax<half>(d, s, w, 5, 2, 16, false);
    got.push_back(float(d.GetValue(0)));
    ReduceSum<half>(d, s, w, 5, 2, 16);
    got.push_back(float(d.GetValue(0)));
  });
  REQUIRE(msg.empty());
  // The naive reference.
  auto val = [](int i) {
    return i == 356 ? -60.f : i == 517 ? -70.f : float((i * 37) % 101) - 50.f;
  };
  float mn = 1e9f, mx = -1e9f, sum = 0;
  int mn_at = -1;
  for (int r = 0; r < 3; ++r)
    for (int e : {0, 1, 2, 3, 100})
      if (val(r * 256 + e) < mn) mn = val(r * 256 + e), mn_at = r * 256 + e;
  for (int r = 0; r < 2; ++r)
    for (int e = 0; e < 5; ++e) mx = std::max(mx, val(r * 256 + e)), sum += val(r * 256 + e);
  CHECK(got[0] == mn);
  CHECK(got[1] == mn_at);
  CHECK(mn_at == 356);
  CHECK(got[2] == mx);
  CHECK(got[3] == sum);

  auto past = runK([] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> s = buf.Get<float>(128), d = buf.Get<float>()[128];
    ReduceMax<float>(d, s, d, 64, 3, 8);  // 3 repeats of 64 floats: 192 > 128
  });
  CHECK(past.find("ReduceMax: count 192 exceeds LocalTensor 'src'") != std::string::npos);
}

TEST_CASE("WholeReduceSum<T, isSetMask> and the other kernel spellings samples use", "[ascendc]") {
  std::vector<float> got;
  static float gm[64];
  auto msg = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<float> s = buf.Get<float>(128), d = buf.Get<float>()[128];
    for (int i = 0; i < 128; ++i) s.SetValue(i, float(i));
    WholeReduceSum<float, true>(d, s, 64, 2, 1, 1, 8);
    got.push_back(d.GetValue(0));
    got.push_back(d.GetValue(1));
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm, 64);
    InitGlobalMemory(g, 16, 2.5f);
    *(g.address_ + 3) = 7.f;
    got.push_back(g.GetValue(3));
    got.push_back(float(DEFAULT_C0_SIZE));
    got.push_back(GetTPipePtr() == &pipe ? 1.f : 0.f);
  });
  REQUIRE(msg.empty());
  CHECK(got[0] == 64 * 63 / 2);
  CHECK(got[1] == 64 * 63 / 2 + 64 * 64);
  CHECK(gm[0] == 2.5f);
  CHECK(gm[15] == 2.5f);
  CHECK(gm[16] == 0.f);
  CHECK(got[2] == 7.f);
  CHECK(got[3] == 32.f);
  CHECK(got[4] == 1.f);
}

TEST_CASE("WholeReduceMax/Min give each repeat's extreme and its index", "[ascendc]") {
  std::vector<float> vals;
  std::vector<uint32_t> idx;
  auto msg = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> s = buf.Get<float>(256), d = buf.Get<float>()[256];
    for (int i = 0; i < 256; ++i) s.SetValue(i, float((i * 37) % 101) - 50.f);
    s.SetValue(64 + 40, 99.f);   // repeat 1's max at 40, but masked out below for Min's count 32
    s.SetValue(128 + 3, -99.f);  // repeat 2's min at 3
    auto take = [&](int n, bool index_first) {
      for (int r = 0; r < n; ++r) {
        float v = d.GetValue(r * 2 + (index_first ? 1 : 0));
        float bits = d.GetValue(r * 2 + (index_first ? 0 : 1));
        uint32_t i = 0;
        std::memcpy(&i, &bits, 4);
        vals.push_back(v);
        idx.push_back(i);
      }
    };
    WholeReduceMax<float>(d, s, 64, 3, 1, 1, 8);  // (value, index) per repeat of 64
    take(3, false);
    WholeReduceMin<float, true>(d, s, 32, 3, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
    take(3, true);
  });
  REQUIRE(msg.empty());
  auto val = [](int i) {
    return i == 104 ? 99.f : i == 131 ? -99.f : float((i * 37) % 101) - 50.f;
  };
  for (int r = 0; r < 3; ++r) {
    int mx = 0, mn = 0;
    for (int e = 0; e < 64; ++e)
      if (val(r * 64 + e) > val(r * 64 + mx)) mx = e;
    for (int e = 0; e < 32; ++e)
      if (val(r * 64 + e) < val(r * 64 + mn)) mn = e;
    CHECK(vals[r] == val(r * 64 + mx));
    CHECK(idx[r] == uint32_t(mx));
    CHECK(vals[3 + r] == val(r * 64 + mn));
    CHECK(idx[3 + r] == uint32_t(mn));
  }
  CHECK(idx[1] == 40);
  CHECK(idx[5] == 3);
}
