// vec_ops_test.cpp: each Ascend C vector instruction of the CPU layer against a naive loop, for
// float, half and bfloat16_t (16-bit types: computed in float, rounded once to nearest even).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

#include "asc/ascendc/launch.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

namespace {

constexpr int32_t kCount = 200;  // not a multiple of any vector width

/// Three input tensors and one output, in one TBuf each.
template <typename T>
struct Bench {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b0, b1, b2, b3;
  LocalTensor<T> x, y, z, out;
  Bench() {
    pipe.InitBuffer(b0, 1024 * sizeof(T));
    pipe.InitBuffer(b1, 1024 * sizeof(T));
    pipe.InitBuffer(b2, 1024 * sizeof(T));
    pipe.InitBuffer(b3, 1024 * sizeof(T));
    x = b0.Get<T>();
    y = b1.Get<T>();
    z = b2.Get<T>();
    out = b3.Get<T>();
    for (int32_t i = 0; i < kCount; ++i) {
      // x in [-4, 4), y in [0.25, 4.25): positive where Ln/Sqrt/Div need it
      x.SetValue(i, T(float((i * 37) % 64) / 8.0f - 4.0f));
      y.SetValue(i, T(float((i * 53) % 64) / 16.0f + 0.25f));
    }
  }
};

template <typename T>
T round(float v) {
  return T(v);
}

template <typename T>
bool same(T a, T b) {
  float fa = float(a), fb = float(b);
  if (std::isnan(fa) && std::isnan(fb)) return true;
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T>
void checkUnary(const char* name, const std::function<void(Bench<T>&)>& op,
                const std::function<float(float)>& ref, bool on_y = false) {
  Bench<T> b;
  op(b);
  for (int32_t i = 0; i < kCount; ++i) {
    float in = float(on_y ? b.y.GetValue(i) : b.x.GetValue(i));
    T want = round<T>(ref(in));
    INFO(name << " element " << i << " input " << in << " got " << float(b.out.GetValue(i))
              << " want " << float(want));
    CHECK(same(b.out.GetValue(i), want));
  }
}

template <typename T>
void checkBinary(const char* name, const std::function<void(Bench<T>&)>& op,
                 const std::function<float(float, float)>& ref) {
  Bench<T> b;
  op(b);
  for (int32_t i = 0; i < kCount; ++i) {
    float a = float(b.x.GetValue(i)), c = float(b.y.GetValue(i));
    T want = round<T>(ref(a, c));
    INFO(name << " element " << i << " inputs " << a << ", " << c);
    CHECK(same(b.out.GetValue(i), want));
  }
}

template <typename T>
void allOps() {
  using B = Bench<T>;
  checkBinary<T>(
      "Add", [](B& b) { Add(b.out, b.x, b.y, kCount); }, std::plus<float>());
  checkBinary<T>(
      "Sub", [](B& b) { Sub(b.out, b.x, b.y, kCount); }, std::minus<float>());
  checkBinary<T>(
      "Mul", [](B& b) { Mul(b.out, b.x, b.y, kCount); }, std::multiplies<float>());
  checkBinary<T>(
      "Div", [](B& b) { Div(b.out, b.x, b.y, kCount); }, std::divides<float>());
  checkBinary<T>(
      "Max", [](B& b) { Max(b.out, b.x, b.y, kCount); },
      [](float a, float c) { return a > c ? a : c; });
  checkBinary<T>(
      "Min", [](B& b) { Min(b.out, b.x, b.y, kCount); },
      [](float a, float c) { return a < c ? a : c; });
  checkUnary<T>(
      "Adds", [](B& b) { Adds(b.out, b.x, T(1.5f), kCount); }, [](float a) { return a + 1.5f; });
  checkUnary<T>(
      "Muls", [](B& b) { Muls(b.out, b.x, T(-0.75f), kCount); },
      [](float a) { return a * -0.75f; });
  checkUnary<T>(
      "Maxs", [](B& b) { Maxs(b.out, b.x, T(0.5f), kCount); },
      [](float a) { return a > 0.5f ? a : 0.5f; });
  checkUnary<T>(
      "Mins", [](B& b) { Mins(b.out, b.x, T(0.5f), kCount); },
      [](float a) { return a < 0.5f ? a : 0.5f; });
  checkUnary<T>(
      "LeakyRelu", [](B& b) { LeakyRelu(b.out, b.x, T(0.125f), kCount); },
      [](float a) { return a >= 0 ? a : a * 0.125f; });
  checkUnary<T>(
      "Exp", [](B& b) { Exp(b.out, b.x, kCount); }, [](float a) { return std::exp(a); });
  checkUnary<T>(
      "Ln", [](B& b) { Ln(b.out, b.y, kCount); }, [](float a) { return std::log(a); }, true);
  checkUnary<T>(
      "Abs", [](B& b) { Abs(b.out, b.x, kCount); }, [](float a) { return std::fabs(a); });
  checkUnary<T>(
      "Sqrt", [](B& b) { Sqrt(b.out, b.y, kCount); }, [](float a) { return std::sqrt(a); }, true);
  checkUnary<T>(
      "Rsqrt", [](B& b) { Rsqrt(b.out, b.y, kCount); }, [](float a) { return 1.0f / std::sqrt(a); },
      true);
  checkUnary<T>(
      "Reciprocal", [](B& b) { Reciprocal(b.out, b.y, kCount); }, [](float a) { return 1.0f / a; },
      true);
  checkUnary<T>(
      "Relu", [](B& b) { Relu(b.out, b.x, kCount); }, [](float a) { return a > 0 ? a : 0.0f; });
  checkUnary<T>(
      "Duplicate", [](B& b) { Duplicate(b.out, T(2.25f), kCount); }, [](float) { return 2.25f; });
  checkUnary<T>(
      "DataCopy UB->UB", [](B& b) { DataCopy(b.out, b.x, kCount); }, [](float a) { return a; });
}

}  // namespace

TEST_CASE("Ascend C vector ops match a naive loop (float)", "[ascendc]") { allOps<float>(); }
TEST_CASE("Ascend C vector ops match a naive loop (half)", "[ascendc]") { allOps<half>(); }
TEST_CASE("Ascend C vector ops match a naive loop (bfloat16_t)", "[ascendc]") {
  allOps<bfloat16_t>();
}

TEST_CASE("half and bfloat16_t round to nearest even", "[ascendc]") {
  CHECK(half(1.0f).bits == 0x3c00);
  CHECK(half(65504.0f).bits == 0x7bff);
  CHECK(half(65520.0f).bits == 0x7c00);            // the tie above the largest half goes to inf
  CHECK(half(1.0f + 1.0f / 2048).bits == 0x3c00);  // tie: to even (down)
  CHECK(half(1.0f + 3.0f / 2048).bits == 0x3c02);  // tie: to even (up)
  CHECK(float(half::fromBits(0x0001)) == std::ldexp(1.0f, -24));
  CHECK(bfloat16_t(1.0f + 1.0f / 256).bits == 0x3f80);  // tie: to even (down)
  CHECK(bfloat16_t(1.0f + 3.0f / 256).bits == 0x3f82);
  half a = 1.5f, b = 2.25f;
  half c = a * b;  // arithmetic through float
  CHECK(float(c) == 3.375f);
  c += 1;
  CHECK(float(c) == 4.375f);
}

TEST_CASE("Cast rounds by its mode", "[ascendc]") {
  TPipe pipe;
  TBuf<TPosition::VECCALC> fb, hb, ib;
  pipe.InitBuffer(fb, 64 * 4);
  pipe.InitBuffer(hb, 64 * 2);
  pipe.InitBuffer(ib, 64 * 4);
  auto f = fb.Get<float>();
  auto h = hb.Get<half>();
  auto i32 = ib.Get<int32_t>();
  const float in[] = {2.5f, -2.5f, 1.4f, -1.6f, 3.5f};
  for (int k = 0; k < 5; ++k) f.SetValue(k, in[k]);
  auto ints = [&](RoundMode m) {
    Cast(i32, f, m, 5);
    std::vector<int32_t> v;
    for (int k = 0; k < 5; ++k) v.push_back(i32.GetValue(k));
    return v;
  };
  CHECK(ints(RoundMode::CAST_RINT) == std::vector<int32_t>{2, -2, 1, -2, 4});
  CHECK(ints(RoundMode::CAST_ROUND) == std::vector<int32_t>{3, -3, 1, -2, 4});
  CHECK(ints(RoundMode::CAST_FLOOR) == std::vector<int32_t>{2, -3, 1, -2, 3});
  CHECK(ints(RoundMode::CAST_CEIL) == std::vector<int32_t>{3, -2, 2, -1, 4});
  CHECK(ints(RoundMode::CAST_TRUNC) == std::vector<int32_t>{2, -2, 1, -1, 3});

  // float -> half: 1 + 1/4096 lies between 1 and 1 + 1/1024.
  f.SetValue(0, 1.0f + 1.0f / 4096);
  f.SetValue(1, -(1.0f + 1.0f / 4096));
  f.SetValue(2, 1.0f + 1.0f / 2048);  // exactly halfway
  Cast(h, f, RoundMode::CAST_NONE, 3);
  CHECK(h.GetValue(0).bits == 0x3c00);
  CHECK(h.GetValue(2).bits == 0x3c00);  // to even
  Cast(h, f, RoundMode::CAST_CEIL, 3);
  CHECK(h.GetValue(0).bits == 0x3c01);
  CHECK(h.GetValue(1).bits == 0xbc00);
  Cast(h, f, RoundMode::CAST_FLOOR, 3);
  CHECK(h.GetValue(0).bits == 0x3c00);
  CHECK(h.GetValue(1).bits == 0xbc01);
  Cast(h, f, RoundMode::CAST_ROUND, 3);
  CHECK(h.GetValue(2).bits == 0x3c01);  // ties away from zero
  Cast(h, f, RoundMode::CAST_TRUNC, 3);
  CHECK(h.GetValue(1).bits == 0xbc00);

  // half -> float is exact; int32 -> float rounds to nearest even.
  h.SetValue(0, half::fromBits(0x3555));
  Cast(f, h, RoundMode::CAST_NONE, 1);
  CHECK(f.GetValue(0) == asc::halfToFloat(0x3555));
  i32.SetValue(0, 16777217);
  Cast(f, i32, RoundMode::CAST_NONE, 1);
  CHECK(f.GetValue(0) == 16777216.0f);
}

TEST_CASE("Compare writes one bit per element and Select reads it", "[ascendc]") {
  Bench<half> b;
  TBuf<TPosition::VECCALC> mb;
  b.pipe.InitBuffer(mb, 256);
  auto mask = mb.Get<uint8_t>();
  for (CMPMODE mode :
       {CMPMODE::LT, CMPMODE::GT, CMPMODE::EQ, CMPMODE::LE, CMPMODE::GE, CMPMODE::NE}) {
    b.z = b.x;  // EQ needs equal elements: compare x with a copy where every third differs
    DataCopy(b.z, b.y, kCount);
    for (int32_t i = 0; i < kCount; i += 3) b.z.SetValue(i, b.x.GetValue(i));
    Compare(mask, b.x, b.z, mode, kCount);
    Select(b.out, mask, b.x, b.z, SELMODE::VSEL_TENSOR_TENSOR_MODE, kCount);
    for (int32_t i = 0; i < kCount; ++i) {
      float a = float(b.x.GetValue(i)), c = float(b.z.GetValue(i));
      bool want = mode == CMPMODE::LT   ? a < c
                  : mode == CMPMODE::GT ? a > c
                  : mode == CMPMODE::EQ ? a == c
                  : mode == CMPMODE::LE ? a <= c
                  : mode == CMPMODE::GE ? a >= c
                                        : a != c;
      INFO("mode " << int(mode) << " element " << i);
      CHECK(bool((mask.GetValue(i / 8) >> (i % 8)) & 1) == want);
      CHECK(b.out.GetValue(i).bits == (want ? b.x : b.z).GetValue(i).bits);
    }
  }
  Compare(mask, b.x, b.y, CMPMODE::GT, kCount);
  Select(b.out, mask, b.x, half(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, kCount);
  for (int32_t i = 0; i < kCount; ++i) {
    float a = float(b.x.GetValue(i)), c = float(b.y.GetValue(i));
    CHECK(float(b.out.GetValue(i)) == (a > c ? a : 0.0f));
  }
}

TEST_CASE("ReduceSum and ReduceMax over float and half", "[ascendc]") {
  Bench<float> f;
  float sum = 0, best = -1e30f;
  int32_t best_i = 0;
  for (int32_t i = 0; i < kCount; ++i) {
    float v = f.x.GetValue(i);
    sum += v;
    if (v > best) best = v, best_i = i;
  }
  ReduceSum(f.out, f.x, f.z, kCount);
  CHECK(f.out.GetValue(0) == sum);
  ReduceMax(f.out, f.x, f.z, kCount, true);
  CHECK(f.out.GetValue(0) == best);
  uint32_t idx;
  float second = f.out.GetValue(1);
  std::memcpy(&idx, &second, 4);
  CHECK(idx == uint32_t(best_i));

  Bench<half> h;
  float hsum = 0;
  for (int32_t i = 0; i < kCount; ++i) hsum += float(h.y.GetValue(i));
  ReduceSum(h.out, h.y, h.z, kCount);
  CHECK(h.out.GetValue(0).bits == half(hsum).bits);
  ReduceMax(h.out, h.y, h.z, kCount, true);
  float hbest = -1e30f;
  int32_t hbest_i = 0;
  for (int32_t i = 0; i < kCount; ++i)
    if (float(h.y.GetValue(i)) > hbest) hbest = float(h.y.GetValue(i)), hbest_i = i;
  CHECK(float(h.out.GetValue(0)) == hbest);
  CHECK(h.out.GetValue(1).bits == uint16_t(hbest_i));
}

TEST_CASE("ReduceSum adds as the vector unit does: a tree per repeat, then the repeat sums",
          "[ascendc]") {
  // 512 halves: repeat 0 sums to 2048 (128 x 16), repeats 1..3 to 1 each (128 x 2^-7). In
  // half, 2048 + 1 rounds back to 2048 (its spacing there is 2): one after another (the count
  // form on Atlas A2/A3) the sum stays 2048; in a second tree (other chips, and the mask form)
  // 1 + 1 = 2 is added once, giving 2050. Exactly: 2051.
  auto run = [](const char* soc, bool mask_form) {
    float got = -1;
    asc::ascendc::LaunchOptions o;
    o.soc = soc;
    asc::Status st = asc::ascendc::launchKernel(
        "reduce_order", 1,
        [&] {
          TPipe pipe;
          TBuf<TPosition::VECCALC> bx, bd, bw;
          pipe.InitBuffer(bx, 512 * sizeof(half));
          pipe.InitBuffer(bd, 32);
          pipe.InitBuffer(bw, 512 * sizeof(half));
          LocalTensor<half> x = bx.Get<half>(), d = bd.Get<half>(), w = bw.Get<half>();
          for (int i = 0; i < 512; ++i) x.SetValue(i, half(i < 128 ? 16.0f : 0.0078125f));
          if (mask_form)
            ReduceSum(d, x, w, 128, 4, 8);
          else
            ReduceSum(d, x, w, 512);
          got = float(d.GetValue(0));
        },
        o);
    REQUIRE(st.isOk());
    return got;
  };
  CHECK(run("Ascend910B1", false) == 2048.0f);
  CHECK(run("Ascend310P3", false) == 2050.0f);
  CHECK(run("Ascend910B1", true) == 2050.0f);
  // float: the same order, rounded to float at each add (here exact).
  float fsum = -1;
  REQUIRE(asc::ascendc::launchKernel("reduce_float", 1, [&] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> bx, bd;
            pipe.InitBuffer(bx, 200 * sizeof(float));
            pipe.InitBuffer(bd, 32);
            LocalTensor<float> x = bx.Get<float>(), d = bd.Get<float>();
            for (int i = 0; i < 200; ++i) x.SetValue(i, float(i));
            ReduceSum(d, x, x, 200);
            fsum = d.GetValue(0);
          }).isOk());
  CHECK(fsum == 19900.0f);
}

TEST_CASE("LocalTensor expressions dst = a + b, a - b, a * b, a / b", "[ascendc]") {
  std::vector<float> got;
  asc::Status st = asc::ascendc::launchKernel("k", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bd;
    pipe.InitBuffer(ba, 64 * sizeof(float));
    pipe.InitBuffer(bb, 64 * sizeof(float));
    pipe.InitBuffer(bd, 64 * sizeof(float));
    LocalTensor<float> a = ba.Get<float>(), b = bb.Get<float>(), d = bd.Get<float>();
    for (int i = 0; i < 64; ++i) {
      a.SetValue(i, float(i + 1));
      b.SetValue(i, 2.0f);
    }
    for (int op = 0; op < 4; ++op) {
      if (op == 0) d = a + b;
      if (op == 1) d = a - b;
      if (op == 2) d = a * b;
      if (op == 3) d = a / b;
      got.push_back(d.GetValue(0));
      got.push_back(d.GetValue(63));
    }
    LocalTensor<float> copy = a;  // a plain assignment still makes a view, computing nothing
    copy = b;
    got.push_back(copy.GetValue(5));
  });
  REQUIRE(st.isOk());
  CHECK(got == std::vector<float>{3, 66, -1, 62, 2, 128, 0.5f, 32, 2});
}

TEST_CASE("Pad fills around each row's data; UnPad drops the padding and packs the rows",
          "[ascendc]") {
  optiling::PadTiling pt;
  AscendC::PadTilingFunc(ge::Shape({4, 16}), ge::Shape({4, 7}), 0, 2, pt);
  CHECK(pt.srcHeight == 4);
  CHECK(pt.srcWidth == 16);
  CHECK(pt.srcOriWidth == 7);
  optiling::UnPadTiling ut;
  uint32_t mx = 1, mn = 1;
  AscendC::GetUnPadMaxMinTmpSize(platform_ascendc::PlatformAscendC("Ascend910B1"),
                                 ge::Shape({4, 16}), 2, mx, mn);
  CHECK(mx == 0);
  AscendC::UnPadTilingFunc(ge::Shape({4, 16}), mx, 2, ut);
  std::vector<float> padded, unpadded;
  asc::Status st = asc::ascendc::launchKernel("k", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 64 * sizeof(half));
    pipe.InitBuffer(b, 64 * sizeof(half));
    LocalTensor<half> x = a.Get<half>(), y = b.Get<half>();
    for (int i = 0; i < 64; ++i) x.SetValue(i, half(float(i)));
    Pad(x, x, PadParams{2, 7, -1}, pt);  // in place: 2 fill values, 7 data, 7 fill values
    for (int i = 0; i < 64; ++i) padded.push_back(float(x.GetValue(i)));
    for (int i = 0; i < 64; ++i) x.SetValue(i, half(float(i)));
    UnPadParams up;
    up.leftPad = 1;
    up.rightPad = 3;
    UnPad<half>(y, x, up, ut);  // 12 of each row's 16
    for (int i = 0; i < 48; ++i) unpadded.push_back(float(y.GetValue(i)));
  });
  REQUIRE(st.isOk());
  for (int r = 0; r < 4; ++r)
    for (int j = 0; j < 16; ++j) {
      const float want = j >= 2 && j < 9 ? float(r * 16 + j - 2) : -1.f;
      REQUIRE(padded[r * 16 + j] == want);
    }
  for (int r = 0; r < 4; ++r)
    for (int j = 0; j < 12; ++j) REQUIRE(unpadded[r * 12 + j] == float(r * 16 + 1 + j));
  auto tooWide = asc::ascendc::launchKernel("k", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 64 * sizeof(half));
    Pad(a.Get<half>(), a.Get<half>(), PadParams{0, 10, 0}, pt);
  });
  CHECK(tooWide.message().find("Pad: leftPad 0 + the row's 7 elements + rightPad 10 exceed the "
                               "row width 16") != std::string::npos);
}

TEST_CASE("Not and CreateVecIndex", "[ascendc]") {
  std::vector<int32_t> got;
  asc::Status st = asc::ascendc::launchKernel("k", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 64 * sizeof(int32_t));
    pipe.InitBuffer(b, 64 * sizeof(int16_t));
    LocalTensor<int32_t> idx = a.Get<int32_t>();
    CreateVecIndex(idx, int32_t(5), 40);
    got.push_back(idx.GetValue(0));
    got.push_back(idx.GetValue(39));
    LocalTensor<int16_t> m = b.Get<int16_t>();
    Duplicate(m, int16_t(0x0F0F), 16);
    Not(m, m, 16);
    got.push_back(m.GetValue(15));
  });
  REQUIRE(st.isOk());
  CHECK(got == std::vector<int32_t>{5, 44, int16_t(~0x0F0F)});
}
