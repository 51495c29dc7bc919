// matrix_test.cpp: Trilu (upper/lower, diagonal k as a constant or a run-time input, batches),
// EyeLike (k, dtype), Det, ReverseSequence and Einsum against naive references.
#include <catch2/catch.hpp>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("Trilu keeps a triangle from diagonal k", "[ops][matrix]") {
  const int64_t B = 2, R = 3, C = 4;
  std::vector<int32_t> x(B * R * C);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>(i + 1);
  for (int64_t upper : {0, 1})
    for (int64_t k : {-1, 0, 2}) {
      INFO("upper " << upper << " k " << k);
      std::vector<int32_t> want(x.size());
      for (int64_t b = 0; b < B; ++b)
        for (int64_t i = 0; i < R; ++i)
          for (int64_t j = 0; j < C; ++j) {
            const size_t at = static_cast<size_t>((b * R + i) * C + j);
            want[at] = (upper ? j - i >= k : j - i <= k) ? x[at] : 0;
          }
      OpTester run("Trilu", 14);  // k as a run-time input
      run.input(DType::I32, {B, R, C}).input(DType::I64, {}).attr("upper", upper);
      CHECK(runKernel<int32_t>(run, {bytesOf(x), bytesOf(Ints{k})}) == want);
      OpTester fold("Trilu", 14);  // constants fold
      fold.constant(DType::I32, {B, R, C}, x.data(), x.size() * 4)
          .constInts({k}, {})
          .attr("upper", upper);
      REQUIRE(fold.run().isOk());
      REQUIRE(fold.out().isConstant());
      const auto got = fold.out().tensor().toInts();
      CHECK(got == Ints(want.begin(), want.end()));
    }
  OpTester none("Trilu", 14);  // no k: 0
  none.input(DType::F32, {2, 2});
  CHECK(runKernel<float>(none, {bytesOf(std::vector<float>{1, 2, 3, 4})}) ==
        std::vector<float>{1, 2, 0, 4});
  OpTester bad("Trilu", 14);
  bad.input(DType::F32, {4});
  CHECK(mentions(bad.run(), "rank"));
}

TEST_CASE("EyeLike: diagonal k, dtype attribute, folds from the shape", "[ops][matrix]") {
  OpTester t("EyeLike", 9);
  t.input(DType::I32, {3, 4}).attr("k", int64_t{1}).attr("dtype", int64_t{1});  // float
  REQUIRE(t.run().isOk());
  REQUIRE(t.out().isConstant());
  CHECK(t.out().dtype == DType::F32);
  CHECK(asc::test::doublesOf(t.out()) == std::vector<double>{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  OpTester n("EyeLike", 9);
  n.input(DType::I64, {3, 2}).attr("k", int64_t{-1});
  REQUIRE(n.run().isOk());
  CHECK(n.out().dtype == DType::I64);
  CHECK(n.out().tensor().toInts() == Ints{0, 0, 1, 0, 0, 1});
  OpTester bad("EyeLike", 9);
  bad.input(DType::F32, {2, 2, 2});
  CHECK(mentions(bad.run(), "2-D"));
}

TEST_CASE("Det of a batch of matrices", "[ops][matrix]") {
  // [2, 3, 3]: a permutation-needing matrix and a singular one.
  const std::vector<float> x = {
      0, 2, 1, 3, 1, 0, 1, 1, 1,   // det = 0*(1-0) - 2*(3-0) + 1*(3-1) = -4
      1, 2, 3, 2, 4, 6, 0, 1, 5};  // rows 0, 1 dependent: 0
  OpTester t("Det", 11);
  t.input(DType::F32, {2, 3, 3});
  auto got = runKernel<float>(t, {bytesOf(x)});
  REQUIRE(got.size() == 2);
  CHECK(got[0] == Approx(-4.0));
  CHECK(got[1] == Approx(0.0).margin(1e-6));
  OpTester f("Det", 11);
  f.constFloats({2, 1, 1, 3}, {2, 2});
  REQUIRE(f.run().isOk());
  REQUIRE(f.out().isConstant());
  CHECK(f.out().shape == ir::Shape{});
  CHECK(asc::test::doublesOf(f.out())[0] == Approx(5.0));
  OpTester bad("Det", 11);
  bad.input(DType::F32, {2, 3});
  CHECK(mentions(bad.run(), "[*, M, M]"));
}

TEST_CASE("ReverseSequence reverses each row's first steps", "[ops][matrix]") {
  // [time 4, batch 2], lens {3, 1}: column 0 reversed in its first 3 steps, column 1 kept.
  const std::vector<int32_t> x = {0, 10, 1, 11, 2, 12, 3, 13};
  OpTester t("ReverseSequence", 10);
  t.input(DType::I32, {4, 2}).input(DType::I64, {2});
  CHECK(runKernel<int32_t>(t, {bytesOf(x), bytesOf(Ints{3, 1})}) ==
        std::vector<int32_t>{2, 10, 1, 11, 0, 12, 3, 13});
  // batch_axis 0, time_axis 1: [batch 2, time 3, 2] with blocks of 2 moving together.
  const std::vector<float> y = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  OpTester b("ReverseSequence", 10);
  b.input(DType::F32, {2, 3, 2}).input(DType::I64, {2});
  b.attr("batch_axis", int64_t{0}).attr("time_axis", int64_t{1});
  CHECK(runKernel<float>(b, {bytesOf(y), bytesOf(Ints{2, 3})}) ==
        std::vector<float>{3, 4, 1, 2, 5, 6, 11, 12, 9, 10, 7, 8});
  OpTester bad("ReverseSequence", 10);
  bad.input(DType::F32, {4, 2}).input(DType::I64, {3});
  CHECK(mentions(bad.run(), "sequence_lens"));
}

TEST_CASE("Einsum: matmul, transpose, sums, diagonal, ellipsis", "[ops][matrix]") {
  const std::vector<float> a = {1, 2, 3, 4, 5, 6};   // [2, 3]
  const std::vector<float> b = {1, 0, 2, 1, -1, 3};  // [3, 2]
  OpTester mm("Einsum", 12);
  mm.input(DType::F32, {2, 3}).input(DType::F32, {3, 2}).attr("equation", std::string("ij,jk->ik"));
  // [[1*1+2*2+3*-1, 1*0+2*1+3*3], [4+10-6, 0+5+18]]
  CHECK(runKernel<float>(mm, {bytesOf(a), bytesOf(b)}) == std::vector<float>{2, 11, 8, 23});
  OpTester tr("Einsum", 12);
  tr.input(DType::F32, {2, 3}).attr("equation", std::string("ij->ji"));
  CHECK(runKernel<float>(tr, {bytesOf(a)}) == std::vector<float>{1, 4, 2, 5, 3, 6});
  OpTester sum("Einsum", 12);
  sum.input(DType::F32, {2, 3}).attr("equation", std::string("ij->i"));
  CHECK(runKernel<float>(sum, {bytesOf(a)}) == std::vector<float>{6, 15});
  OpTester dot("Einsum", 12);  // implicit output: a scalar
  dot.input(DType::F32, {3}).input(DType::F32, {3}).attr("equation", std::string("i,i"));
  CHECK(runKernel<float>(dot, {bytesOf(std::vector<float>{1, 2, 3}),
                               bytesOf(std::vector<float>{4, 5, 6})}) == std::vector<float>{32});
  OpTester dg("Einsum", 12);  // batch diagonal
  dg.input(DType::F32, {2, 2, 2}).attr("equation", std::string("...ii->...i"));
  CHECK(runKernel<float>(dg, {bytesOf(std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8})}) ==
        std::vector<float>{1, 4, 5, 8});
  OpTester bad("Einsum", 12);
  bad.input(DType::F32, {2, 3}).input(DType::F32, {2, 2}).attr("equation", std::string("ij,jk"));
  CHECK(mentions(bad.run(), "sizes"));
}
