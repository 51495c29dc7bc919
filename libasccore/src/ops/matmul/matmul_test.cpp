// matmul_test.cpp: MatMul numpy semantics (1-D operands, broadcast batch dims), Gemm transposes
// and C broadcasting, FLOP counts and the error cases; the Gemm loop for run-time B and C.
#include <catch2/catch.hpp>

#include <cmath>

#include "ops/avx2_math.h"
#include "testkit/kernel_runner.h"

using namespace asc::optest;

namespace {
ir::Shape matmulShape(ir::Shape a, ir::Shape b) {
  OpTester t("MatMul");
  t.input(DType::F32, std::move(a)).input(DType::F32, std::move(b));
  REQUIRE(t.run().isOk());
  return t.out().shape;
}
}  // namespace

TEST_CASE("MatMul shapes follow numpy", "[ops][matmul]") {
  CHECK(matmulShape({2, 3}, {3, 4}) == ir::Shape{2, 4});
  CHECK(matmulShape({3}, {3, 4}) == ir::Shape{4});
  CHECK(matmulShape({2, 3}, {3}) == ir::Shape{2});
  CHECK(matmulShape({3}, {3}) == ir::Shape{});
  CHECK(matmulShape({5, 1, 2, 3}, {4, 3, 6}) == ir::Shape{5, 4, 2, 6});
  CHECK(matmulShape({7, 2, 3}, {3}) == ir::Shape{7, 2});
}

TEST_CASE("MatMul FLOPs and errors", "[ops][matmul]") {
  OpTester t("MatMul");
  t.input(DType::F16, {8, 16, 32}).input(DType::F16, {32, 64});
  REQUIRE(t.run().isOk());
  CHECK(ops::nodeFlops(*t.node()) == 2 * 16 * 64 * 32 * 8);
  OpTester k("MatMul");
  k.input(DType::F32, {2, 3}).input(DType::F32, {4, 5});
  CHECK(mentions(k.run(), "inner dims"));
  OpTester b("MatMul");
  b.input(DType::F32, {2, 2, 3}).input(DType::F32, {3, 3, 5});
  CHECK(mentions(b.run(), "batch dims"));
  OpTester s("MatMul");
  s.input(DType::F32, {}).input(DType::F32, {3});
  CHECK(mentions(s.run(), "rank >= 1"));
  OpTester d("MatMul");
  d.input(DType::F32, {2, 3}).input(DType::F16, {3, 2});
  CHECK(mentions(d.run(), "dtypes"));
}

TEST_CASE("Gemm transposes and C broadcasting", "[ops][matmul]") {
  OpTester t("Gemm");
  t.input(DType::F32, {4, 3})
      .input(DType::F32, {5, 4})
      .input(DType::F32, {5})
      .attr("transA", int64_t{1})
      .attr("transB", int64_t{1});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{3, 5});
  CHECK(ops::nodeFlops(*t.node()) == 2 * 3 * 5 * 4 + 2 * 15);
  OpTester n("Gemm", 13);
  n.input(DType::F32, {2, 3}).input(DType::F32, {3, 4});
  REQUIRE(n.run().isOk());
  CHECK(n.out().shape == ir::Shape{2, 4});
  CHECK(n.node()->attrs.getFloat("alpha", 0) == 1.0f);
  OpTester k("Gemm");
  k.input(DType::F32, {2, 3}).input(DType::F32, {4, 3});
  CHECK(mentions(k.run(), "inner dims"));
  OpTester c("Gemm");
  c.input(DType::F32, {2, 3}).input(DType::F32, {3, 4}).input(DType::F32, {3, 4});
  CHECK(mentions(c.run(), "C of shape"));
  OpTester r("Gemm");
  r.input(DType::F32, {2, 3, 1}).input(DType::F32, {3, 4});
  CHECK(mentions(r.run(), "2-D"));
  OpTester old("Gemm", 9);
  old.input(DType::F32, {2, 3}).input(DType::F32, {3, 4});
  CHECK(mentions(old.run(), "required before opset 11"));
}

TEST_CASE("Gemm alpha/beta with B and C computed at run time", "[ops][matmul]") {
  // A [2, 3] transposed from [3, 2], B [3, 2], C [2] broadcast over rows.
  const std::vector<float> at = {1, 4, 2, 5, 3, 6};  // A^T: A = [[1, 2, 3], [4, 5, 6]]
  const std::vector<float> b = {1, 0, 0, 1, 1, 1};
  const std::vector<float> c = {10, 20};
  OpTester t("Gemm");
  t.input(DType::F32, {3, 2}).input(DType::F32, {3, 2}).input(DType::F32, {2});
  t.attr("transA", int64_t{1}).attr("alpha", 0.5f).attr("beta", 2.f);
  auto got = asc::test::runKernel<float>(
      t, {asc::test::bytesOf(at), asc::test::bytesOf(b), asc::test::bytesOf(c)});
  // A B = [[4, 5], [10, 11]]; 0.5 * A B + 2 * C
  CHECK(got == std::vector<float>{22, 42.5f, 25, 45.5f});
}

namespace {
__attribute__((target("avx2,fma"))) void gelu8(const float* x, float* y) {
  _mm256_storeu_ps(y, asc::ops::avx2::geluErf8(_mm256_loadu_ps(x)));
}
}  // namespace

TEST_CASE("the own GEMM's GELU epilogue is within 2e-7 of the exact erf form", "[ops][matmul]") {
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
    WARN("SKIP: no AVX2 + FMA");
    return;
  }
  // 0.5 x (1 + erf(x / sqrt 2)) in double, against the vector and the scalar forms over
  // [-12, 12]: |error| <= 2e-7 * max(1, |x|) (Abramowitz and Stegun's 7.1.26: 1.5e-7 on erf),
  // and negative inputs keep a small result's relative accuracy.
  double worst = 0;
  for (int i = -24000; i < 24000; i += 8) {
    float x[8], v[8];
    for (int j = 0; j < 8; ++j) x[j] = (i + j) * 0.0005f;
    gelu8(x, v);
    for (int j = 0; j < 8; ++j) {
      const double want = 0.5 * x[j] * (1 + std::erf(x[j] / std::sqrt(2.0)));
      const double err = std::fabs(v[j] - want) / std::max(1.0, std::fabs(double(x[j])));
      worst = std::max(worst, err);
      CHECK(asc::ops::avx2::geluErf1(x[j]) == v[j]);
    }
  }
  CHECK(worst <= 2e-7);
  // Far left the result is tiny and negative, not a rounded-away 0 - 0.
  const float x = -5.f;
  float xs[8] = {x, x, x, x, x, x, x, x}, v[8];
  gelu8(xs, v);
  const double want = 0.5 * x * std::erfc(5.0 / std::sqrt(2.0));
  CHECK(v[0] < 0);
  CHECK(std::fabs(v[0] - want) <= 0.02 * std::fabs(want));
}
