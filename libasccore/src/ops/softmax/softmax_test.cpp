// softmax_test.cpp: Softmax/LogSoftmax axis defaults by opset (1 with 2-D coercion before 13,
// -1 since), canonical attributes and errors; the Hardmax kernel and folding.
#include <catch2/catch.hpp>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("Softmax axis default and coerce_2d by opset", "[ops][softmax]") {
  OpTester old("Softmax", 11);
  old.input(DType::F32, {2, 3, 4});
  REQUIRE(old.run().isOk());
  CHECK(old.out().shape == ir::Shape{2, 3, 4});
  CHECK(old.node()->attrs.getInt("axis", -9) == 1);
  CHECK(old.node()->attrs.getInt("coerce_2d", 0) == 1);
  OpTester now("Softmax", 13);
  now.input(DType::F32, {2, 3, 4});
  REQUIRE(now.run().isOk());
  CHECK(now.node()->attrs.getInt("axis", -9) == 2);
  CHECK_FALSE(now.node()->attrs.has("coerce_2d"));
  OpTester ls("LogSoftmax", 13);
  ls.input(DType::F16, {8, 10}).attr("axis", int64_t{0});
  REQUIRE(ls.run().isOk());
  CHECK(ls.out().dtype == DType::F16);
  CHECK(ls.node()->attrs.getInt("axis", -9) == 0);
}

TEST_CASE("Softmax errors", "[ops][softmax]") {
  OpTester a("Softmax");
  a.input(DType::F32, {2, 3}).attr("axis", int64_t{2});
  CHECK(a.run().message().find("axis 2") != std::string::npos);
  OpTester i("LogSoftmax");
  i.input(DType::I32, {2, 3});
  CHECK(i.run().message().find("float") != std::string::npos);
  OpTester s("Softmax");
  s.input(DType::F32, {});
  CHECK(s.run().message().find("rank >= 1") != std::string::npos);
}

TEST_CASE("Hardmax: one-hot of the first maximum, axis by opset", "[ops][softmax]") {
  // [2, 2, 3]
  const std::vector<float> x = {1, 3, 3, 0, 5, 1, 2, 2, 2, -1, 0, 7};
  std::vector<float> last(12, 0.f);  // opset 13: along the last axis (first max wins ties)
  for (int r = 0; r < 4; ++r) {
    int best = 0;
    for (int j = 1; j < 3; ++j)
      if (x[r * 3 + j] > x[r * 3 + best]) best = j;
    last[r * 3 + best] = 1.f;
  }
  OpTester t("Hardmax", 13);
  t.input(DType::F32, {2, 2, 3});
  CHECK(asc::test::runKernel<float>(t, {asc::test::bytesOf(x)}) == last);
  // opset 11, axis 1: the [2, 6] view, one 1 per row of 6.
  std::vector<float> flat(12, 0.f);
  for (int r = 0; r < 2; ++r) {
    int best = 0;
    for (int j = 1; j < 6; ++j)
      if (x[r * 6 + j] > x[r * 6 + best]) best = j;
    flat[r * 6 + best] = 1.f;
  }
  OpTester o("Hardmax", 11);
  o.input(DType::F32, {2, 2, 3});
  CHECK(asc::test::runKernel<float>(o, {asc::test::bytesOf(x)}) == flat);
  OpTester f("Hardmax", 13);
  f.constFloats({1, 4, 2, 4}, {2, 2}).attr("axis", int64_t{0});
  REQUIRE(f.run().isOk());
  REQUIRE(f.out().isConstant());
  CHECK(asc::test::doublesOf(f.out()) == std::vector<double>{0, 1, 1, 0});  // ties: first
}
