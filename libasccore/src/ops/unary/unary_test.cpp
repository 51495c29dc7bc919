// unary_test.cpp: PRelu (the other unary ops are covered in tests/unit/ops/conv_unary_test.cpp):
// slope broadcasting, the legacy per-channel slope, dtype checks and folding; Clip with run-time
// bounds and on integers.
#include <catch2/catch.hpp>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("PRelu slope broadcasts to x", "[ops][unary]") {
  OpTester t("PRelu");
  t.input(DType::F32, {1, 4, 5, 5}).input(DType::F32, {4, 1, 1});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{1, 4, 5, 5});
  CHECK(t.out().dtype == DType::F32);

  OpTester bad("PRelu");
  bad.input(DType::F32, {1, 4, 5, 5}).input(DType::F32, {4});  // numpy: 4 vs last dim 5
  Status s = bad.run();
  REQUIRE(s.code() == ErrorCode::InvalidModel);
  CHECK(s.message().find("slope") != std::string::npos);

  OpTester wide("PRelu");  // slope may not grow the output
  wide.input(DType::F32, {4, 1}).input(DType::F32, {4, 3});
  CHECK_FALSE(wide.run().isOk());

  OpTester ints("PRelu");
  ints.input(DType::I32, {4}).input(DType::I32, {1});
  CHECK(ints.run().message().find("float") != std::string::npos);

  OpTester mixed("PRelu");
  mixed.input(DType::F32, {4}).input(DType::F16, {1});
  CHECK(mixed.run().message().find("dtype") != std::string::npos);
}

TEST_CASE("PRelu opset 6 per-channel slope becomes [C, 1, 1]", "[ops][unary]") {
  OpTester t("PRelu", 6);
  t.input(DType::F32, {1, 3, 4, 5}).constFloats({0.1f, 0.2f, 0.3f}, {3});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{1, 3, 4, 5});
  CHECK(t.node()->inputs[1]->shape == ir::Shape{3, 1, 1});
  OpTester dyn("PRelu", 6);
  dyn.input(DType::F32, {1, 3, 4, 5}).input(DType::F32, {3});
  CHECK(dyn.run().message().find("constant") != std::string::npos);
}

TEST_CASE("PRelu folds on constants", "[ops][unary]") {
  OpTester t("PRelu");
  t.constFloats({-2.f, 3.f, -4.f, 5.f}, {2, 2}).constFloats({0.5f, 0.25f}, {2});
  REQUIRE(t.run().isOk());
  REQUIRE(t.out().isConstant());
  ir::Tensor v = t.out().tensor();
  CHECK(v.floatAt(0) == -1.0);
  CHECK(v.floatAt(1) == 3.0);
  CHECK(v.floatAt(2) == -2.0);
  CHECK(v.floatAt(3) == 5.0);
}

TEST_CASE("Clip with run-time bounds and on integers", "[ops][unary]") {
  using asc::test::bytesOf;
  using asc::test::runKernel;
  const std::vector<float> x = {-3.f, -0.5f, 0.f, 0.7f, 9.f};
  OpTester t("Clip", 13);  // both bounds run-time inputs: kept as inputs, read per run
  t.input(DType::F32, {5}).input(DType::F32, {}).input(DType::F32, {});
  auto got = runKernel<float>(
      t, {bytesOf(x), bytesOf(std::vector<float>{-1.f}), bytesOf(std::vector<float>{0.5f})});
  CHECK(got == std::vector<float>{-1.f, -0.5f, 0.f, 0.5f, 0.5f});
  OpTester m("Clip", 13);  // min omitted, max at run time
  m.input(DType::F32, {5}).none().input(DType::F32, {});
  CHECK(runKernel<float>(m, {bytesOf(x), bytesOf(std::vector<float>{0.f})}) ==
        std::vector<float>{-3.f, -0.5f, 0.f, 0.f, 0.f});
  OpTester i8("Clip", 13);  // int8, no bounds: the type's limits
  i8.input(DType::I8, {3});
  const std::vector<int8_t> xi = {-128, 5, 127};
  CHECK(runKernel<int8_t>(i8, {bytesOf(xi)}) == xi);
  OpTester ic("Clip", 13);  // int32 with constant bounds (attributes after canonicalization)
  const int32_t lo = -2, hi = 3;
  ic.input(DType::I32, {4}).constant(DType::I32, {}, &lo, 4).constant(DType::I32, {}, &hi, 4);
  CHECK(runKernel<int32_t>(ic, {bytesOf(std::vector<int32_t>{-9, -1, 2, 8})}) ==
        std::vector<int32_t>{-2, -1, 2, 3});
  OpTester bad("Clip", 13);
  bad.input(DType::F32, {5}).input(DType::F32, {2});
  CHECK(asc::test::mentions(bad.run(), "one value"));
}
