// matrix_test.cpp: Trilu (upper/lower, diagonal k as a constant or a run-time input, batches) and
// EyeLike (k, dtype) against a naive reference.
#include <catch2/catch.hpp>

#include "support/kernel_runner.h"

using namespace asc;
using asc::test::bytesOf;
using asc::test::mentions;
using asc::test::OpTester;
using asc::test::runKernel;
using ir::DType;
using Ints = std::vector<int64_t>;

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
