// softmax_test.cpp: Softmax/LogSoftmax axis defaults by opset (1 with 2-D coercion before 13,
// -1 since), canonical attributes and errors.
#include <catch2/catch.hpp>

#include "support/op_tester.h"

using namespace asc;
using asc::test::OpTester;
using ir::DType;

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
