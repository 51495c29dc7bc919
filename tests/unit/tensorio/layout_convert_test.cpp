// layout_convert_test.cpp: NC1HWC0, FRACTAL_Z and FRACTAL_NZ back to the origin layout,
// against a naive element-by-element reference (padding filled with garbage that must never
// appear in the result) and as round trips through the test-side packers; shapes that do not
// fit are refused.
#include "asc/tensorio/layout_convert.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <random>

#include "testkit/layout_pack.h"

using namespace asc;
using namespace asc::tensorio;

namespace {

// A tensor of `shape` whose elements are random bits of `dtype`'s size.
ir::Tensor randomTensor(ir::DType dtype, const ir::Shape& shape, uint32_t seed) {
  ir::Tensor t;
  t.dtype = dtype;
  t.shape = shape;
  std::vector<uint8_t> b(t.byteSize());
  std::mt19937 rng(seed);
  for (auto& v : b) v = static_cast<uint8_t>(rng());
  t.data = ir::Blob::fromVector(std::move(b));
  return t;
}

bool sameBytes(const ir::Tensor& a, const ir::Tensor& b) {
  return a.dtype == b.dtype && a.shape == b.shape && a.data->size() == b.data->size() &&
         std::memcmp(a.data->data(), b.data->data(), a.data->size()) == 0;
}

// Element i of `t` as raw bits (element size 1, 2 or 4).
uint32_t bitsAt(const ir::Tensor& t, int64_t i) {
  const size_t es = ir::dtypeSize(t.dtype);
  uint32_t v = 0;
  std::memcpy(&v, t.data->data() + static_cast<size_t>(i) * es, es);
  return v;
}

}  // namespace

TEST_CASE("NC1HWC0 to NCHW matches the naive reference on odd shapes", "[tensorio][layout]") {
  struct Case {
    ir::DType dtype;
    int64_t n, c, h, w, c0;
  };
  for (const Case& k : {Case{ir::DType::F16, 2, 20, 3, 5, 16}, Case{ir::DType::F32, 1, 3, 7, 2, 16},
                        Case{ir::DType::F32, 3, 33, 1, 1, 16}, Case{ir::DType::I8, 2, 40, 3, 3, 32},
                        Case{ir::DType::F16, 1, 16, 2, 2, 16}}) {
    const int64_t c1 = (k.c + k.c0 - 1) / k.c0;
    // Every stored element random, padding included: padding must not reach the output.
    ir::Tensor stored = randomTensor(k.dtype, {k.n, c1, k.h, k.w, k.c0}, 11);
    auto got = toOriginLayout(stored, kFormatNC1HWC0, {k.n, k.c, k.h, k.w}, kFormatNCHW, "t");
    REQUIRE(got.isOk());
    REQUIRE(got->shape == ir::Shape{k.n, k.c, k.h, k.w});
    int64_t i = 0, bad = 0;
    for (int64_t n = 0; n < k.n; ++n)
      for (int64_t c = 0; c < k.c; ++c)
        for (int64_t h = 0; h < k.h; ++h)
          for (int64_t w = 0; w < k.w; ++w, ++i)
            if (bitsAt(*got, i) !=
                bitsAt(stored, test::nc1hwc0Index(n, c, h, w, k.c, k.h, k.w, k.c0)))
              ++bad;
    CHECK(bad == 0);
  }
}

TEST_CASE("NC1HWC0 to NHWC when the origin format says NHWC", "[tensorio][layout]") {
  const int64_t N = 2, C = 19, H = 3, W = 4, c0 = 16;
  ir::Tensor stored = randomTensor(ir::DType::F32, {N, 2, H, W, c0}, 5);
  auto got = toOriginLayout(stored, kFormatNC1HWC0, {N, H, W, C}, kFormatNHWC, "t");
  REQUIRE(got.isOk());
  int64_t i = 0, bad = 0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t w = 0; w < W; ++w)
        for (int64_t c = 0; c < C; ++c, ++i)
          if (bitsAt(*got, i) != bitsAt(stored, test::nc1hwc0Index(n, c, h, w, C, H, W, c0))) ++bad;
  CHECK(bad == 0);
}

TEST_CASE("FRACTAL_Z to NCHW matches the naive reference on odd shapes", "[tensorio][layout]") {
  struct Case {
    ir::DType dtype;
    int64_t n, c, h, w, c0;
  };
  for (const Case& k :
       {Case{ir::DType::F16, 20, 3, 3, 3, 16}, Case{ir::DType::F32, 17, 33, 1, 1, 16},
        Case{ir::DType::F16, 1, 1, 5, 2, 16}, Case{ir::DType::I8, 35, 40, 2, 3, 32},
        Case{ir::DType::F16, 32, 16, 3, 3, 16}}) {
    const int64_t c1 = (k.c + k.c0 - 1) / k.c0, n1 = (k.n + 15) / 16;
    ir::Tensor stored = randomTensor(k.dtype, {c1 * k.h * k.w, n1, 16, k.c0}, 23);
    auto got = toOriginLayout(stored, kFormatFractalZ, {k.n, k.c, k.h, k.w}, kFormatNCHW, "w");
    REQUIRE(got.isOk());
    int64_t i = 0, bad = 0;
    for (int64_t n = 0; n < k.n; ++n)
      for (int64_t c = 0; c < k.c; ++c)
        for (int64_t h = 0; h < k.h; ++h)
          for (int64_t w = 0; w < k.w; ++w, ++i)
            if (bitsAt(*got, i) !=
                bitsAt(stored, test::fractalZIndex(n, c, h, w, k.n, k.h, k.w, 16, k.c0)))
              ++bad;
    CHECK(bad == 0);
  }
}

TEST_CASE("FRACTAL_NZ to ND matches the naive reference on odd shapes", "[tensorio][layout]") {
  struct Case {
    ir::DType dtype;
    ir::Shape origin;
    int64_t n0;
  };
  for (const Case& k : {Case{ir::DType::F16, {17, 33}, 16}, Case{ir::DType::F32, {2, 3, 5, 40}, 16},
                        Case{ir::DType::F16, {21}, 16}, Case{ir::DType::I8, {3, 18, 70}, 32},
                        Case{ir::DType::F16, {32, 16}, 16}}) {
    const size_t r = k.origin.size();
    const int64_t N = k.origin[r - 1], M = r >= 2 ? k.origin[r - 2] : 1;
    ir::Shape stored_shape(k.origin.begin(), k.origin.end() - (r >= 2 ? 2 : 1));
    int64_t B = 1;
    for (int64_t d : stored_shape) B *= d;
    for (int64_t d : {(N + k.n0 - 1) / k.n0, (M + 15) / 16, int64_t{16}, k.n0})
      stored_shape.push_back(d);
    ir::Tensor stored = randomTensor(k.dtype, stored_shape, 37);
    auto got = toOriginLayout(stored, kFormatFractalNZ, k.origin, kFormatND, "m");
    REQUIRE(got.isOk());
    REQUIRE(got->shape == k.origin);
    int64_t i = 0, bad = 0;
    for (int64_t b = 0; b < B; ++b)
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n, ++i)
          if (bitsAt(*got, i) != bitsAt(stored, test::fractalNZIndex(b, m, n, M, N, 16, k.n0)))
            ++bad;
    CHECK(bad == 0);
  }
}

TEST_CASE("device layouts round-trip byte-equal through the test packers", "[tensorio][layout]") {
  for (ir::DType dt : {ir::DType::F32, ir::DType::F16, ir::DType::I8}) {
    const int64_t c0 = dt == ir::DType::I8 ? 32 : 16;
    ir::Tensor x = randomTensor(dt, {3, 21, 4, 5}, 3);
    auto a =
        toOriginLayout(test::packNC1HWC0(x, c0, 0xAB), kFormatNC1HWC0, x.shape, kFormatNCHW, "x");
    REQUIRE(a.isOk());
    CHECK(sameBytes(*a, x));
    ir::Tensor wt = randomTensor(dt, {18, 37, 3, 3}, 4);
    auto b = toOriginLayout(test::packFractalZ(wt, c0, 16, 0xCD), kFormatFractalZ, wt.shape,
                            kFormatNCHW, "w");
    REQUIRE(b.isOk());
    CHECK(sameBytes(*b, wt));
    ir::Tensor m = randomTensor(dt, {2, 19, 45}, 5);
    auto c = toOriginLayout(test::packFractalNZ(m, c0, 16, 0xEF), kFormatFractalNZ, m.shape,
                            kFormatND, "m");
    REQUIRE(c.isOk());
    CHECK(sameBytes(*c, m));
  }
  // A plain format comes back unchanged.
  ir::Tensor x = randomTensor(ir::DType::F32, {2, 3}, 9);
  auto same = toOriginLayout(x, kFormatND, {6}, kFormatND, "x");
  REQUIRE(same.isOk());
  CHECK(sameBytes(*same, x));
}

TEST_CASE("a stored shape that does not fit the origin shape is refused", "[tensorio][layout]") {
  ir::Tensor x = randomTensor(ir::DType::F32, {1, 20, 3, 3}, 1);
  ir::Tensor p = test::packNC1HWC0(x, 16);  // (1, 2, 3, 3, 16)
  // C = 40 needs C1 = 3; H = 4 needs more elements; no origin shape at all.
  for (const ir::Shape& wrong : {ir::Shape{1, 40, 3, 3}, ir::Shape{1, 20, 4, 3}, ir::Shape{}}) {
    auto r = toOriginLayout(p, kFormatNC1HWC0, wrong, kFormatNCHW, "'conv1' output 0");
    REQUIRE_FALSE(r.isOk());
    CHECK(r.status().code() == ErrorCode::ModelParseFailed);
    CHECK_THAT(r.status().message(),
               Catch::Contains("'conv1' output 0") && Catch::Contains("original_shape"));
  }
  auto r = toOriginLayout(p, kFormatNC1HWC0, {1, 20, 9}, kFormatNCHW, "t");
  REQUIRE_FALSE(r.isOk());
  CHECK_THAT(r.status().message(), Catch::Contains("4-D"));
  ir::Tensor w = randomTensor(ir::DType::F16, {18, 37, 3, 3}, 2);
  auto fz =
      toOriginLayout(test::packFractalZ(w, 16), kFormatFractalZ, {40, 37, 3, 3}, kFormatNCHW, "w");
  REQUIRE_FALSE(fz.isOk());
  CHECK_THAT(fz.status().message(), Catch::Contains("FRACTAL_Z") && Catch::Contains("(40,37,3,3)"));
  ir::Tensor m = randomTensor(ir::DType::F16, {19, 45}, 3);
  auto nz = toOriginLayout(test::packFractalNZ(m), kFormatFractalNZ, {2, 19, 45}, kFormatND, "m");
  REQUIRE_FALSE(nz.isOk());
  CHECK_THAT(nz.status().message(), Catch::Contains("FRACTAL_NZ"));
  // Huge header dims are refused, not multiplied into an overflow.
  auto huge = toOriginLayout(p, kFormatNC1HWC0, {int64_t{1} << 40, int64_t{1} << 40, 0, 3},
                             kFormatNCHW, "t");
  REQUIRE_FALSE(huge.isOk());
  CHECK(huge.status().code() == ErrorCode::ModelParseFailed);
}

TEST_CASE("device formats other than the three are refused with their name", "[tensorio][layout]") {
  ir::Tensor x = randomTensor(ir::DType::F16, {1, 1, 2, 3, 3, 16}, 1);
  for (int f : {kFormatNDC1HWC0, kFormatFractalZ3D, kFormatNC1HWC0_C04}) {
    auto r = toOriginLayout(x, f, {1, 2, 3, 3, 3}, kFormatNCDHW, "t");
    REQUIRE_FALSE(r.isOk());
    CHECK(r.status().code() == ErrorCode::NotImplemented);
    CHECK_THAT(r.status().message(), Catch::Contains(dumpFormatName(f)));
  }
  CHECK(dumpFormatName(kFormatNDC1HWC0) == "NDC1HWC0");
  CHECK(dumpFormatName(kFormatFractalNZ) == "FRACTAL_NZ");
  CHECK(dumpFormatName(1000) == "format 1000");
}
