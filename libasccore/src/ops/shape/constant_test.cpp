// constant_test.cpp: Constant (value and value_float(s)/value_int(s)), ConstantOfShape and Range
// (constant.cpp): shapes, values and folding.
#include <catch2/catch.hpp>

#include <limits>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("Constant and ConstantOfShape", "[ops][shape]") {
  OpTester f("Constant");
  f.attr("value_floats", std::vector<float>{1.5f, 2.5f});
  REQUIRE(f.run().isOk());
  REQUIRE(f.out().isConstant());
  CHECK(f.out().shape == ir::Shape{2});
  CHECK(floatsOf(f.out()) == std::vector<float>{1.5f, 2.5f});
  OpTester i("Constant");
  i.attr("value_int", int64_t{7});
  REQUIRE(i.run().isOk());
  CHECK(i.out().shape == ir::Shape{});
  CHECK(i.out().tensor().toInts() == Ints{7});
  Ints v = {1, 2, 3, 4, 5, 6};
  OpTester t("Constant");
  t.attr("value", ir::Tensor{DType::I64, {2, 3}, ir::Blob::copyOf(v.data(), v.size() * 8)});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{2, 3});
  CHECK(t.out().tensor().toInts() == v);
  OpTester none("Constant");
  CHECK(mentions(none.run(), "no value"));
  OpTester bad("Constant");
  bad.attr("value", ir::Tensor{DType::I64, {4}, ir::Blob::copyOf(v.data(), 8)});
  CHECK(mentions(bad.run(), "bytes"));

  OpTester z("ConstantOfShape");
  z.constInts({2, 3});
  REQUIRE(z.run().isOk());
  CHECK(z.out().dtype == DType::F32);
  CHECK(floatsOf(z.out()) == std::vector<float>(6, 0.0f));
  int64_t seven = 7;
  OpTester s("ConstantOfShape");
  s.constInts({3}).attr("value", ir::Tensor{DType::I64, {1}, ir::Blob::copyOf(&seven, 8)});
  REQUIRE(s.run().isOk());
  CHECK(s.out().tensor().toInts() == Ints{7, 7, 7});
  OpTester dyn("ConstantOfShape");
  dyn.input(DType::I64, {2});
  CHECK(mentions(dyn.run(), "constant"));
  OpTester neg("ConstantOfShape");
  neg.constInts({2, -1});
  CHECK(mentions(neg.run(), "negative"));
}

TEST_CASE("Range folds from constant start, limit and delta", "[ops][shape]") {
  OpTester f("Range", 11);
  const float start = 1.f, limit = 2.5f, delta = 0.4f;
  f.constant(DType::F32, {}, &start, 4).constant(DType::F32, {}, &limit, 4);
  f.constant(DType::F32, {}, &delta, 4);
  REQUIRE(f.run().isOk());
  REQUIRE(f.out().isConstant());
  CHECK(f.out().shape == ir::Shape{4});  // ceil(1.5 / 0.4) = 4
  const auto v = doublesOf(f.out());
  for (int i = 0; i < 4; ++i) CHECK(v[i] == Approx(1.0 + 0.4 * i));
  OpTester neg("Range", 11);
  neg.constInts({10}, {}).constInts({4}, {}).constInts({-3}, {});
  REQUIRE(neg.run().isOk());
  CHECK(neg.out().tensor().toInts() == Ints{10, 7});
  OpTester empty("Range", 11);
  empty.constInts({5}, {}).constInts({1}, {}).constInts({2}, {});
  REQUIRE(empty.run().isOk());
  CHECK(empty.out().shape == ir::Shape{0});
  OpTester dyn("Range", 11);
  dyn.input(DType::I64, {}).constInts({4}, {}).constInts({1}, {});
  CHECK(mentions(dyn.run(), "compile time"));
}
