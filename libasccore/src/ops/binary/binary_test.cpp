// binary_test.cpp: broadcasting shapes and dtypes of the element-wise binary and variadic ops,
// their constant folding (integer Div truncates toward zero) and the legacy broadcast attrs.
#include <catch2/catch.hpp>

#include <cmath>

#include "support/op_tester.h"

using namespace asc;
using asc::test::doublesOf;
using asc::test::mentions;
using asc::test::OpTester;
using ir::DType;
using Ints = std::vector<int64_t>;

TEST_CASE("Add/Sub/Mul/Div/Pow broadcast", "[ops][binary]") {
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow"}) {
    INFO(op);
    OpTester t(op);
    t.input(DType::F32, {2, 1, 4}).input(DType::F32, {3, 1});
    REQUIRE(t.run().isOk());
    CHECK(t.out().shape == ir::Shape{2, 3, 4});
    CHECK(t.out().dtype == DType::F32);
    CHECK(ops::nodeFlops(*t.node()) == 24);
    OpTester bad(op);
    bad.input(DType::F32, {2, 3}).input(DType::F32, {4});
    CHECK(mentions(bad.run(), "broadcast"));
  }
  OpTester mixed("Add");
  mixed.input(DType::F32, {2}).input(DType::F16, {2});
  CHECK(mentions(mixed.run(), "dtype"));
  OpTester pw("Pow");  // the exponent may have its own dtype
  pw.input(DType::F32, {2}).input(DType::I64, {});
  REQUIRE(pw.run().isOk());
  CHECK(pw.out().dtype == DType::F32);
}

TEST_CASE("arithmetic folds; integer Div truncates toward zero", "[ops][binary]") {
  OpTester a("Add");
  a.constInts({1, 2, 3}).constInts({10}, {});
  REQUIRE(a.run().isOk());
  REQUIRE(a.out().isConstant());
  CHECK(a.out().tensor().toInts() == Ints{11, 12, 13});
  OpTester s("Sub");
  s.constInts({5, 5}).constInts({7, 1});
  REQUIRE(s.run().isOk());
  CHECK(s.out().tensor().toInts() == Ints{-2, 4});
  OpTester m("Mul");
  m.constFloats({1.5f, 2.f}, {2}).constFloats({2.f}, {1});
  REQUIRE(m.run().isOk());
  CHECK(doublesOf(m.out()) == std::vector<double>{3.0, 4.0});
  OpTester d("Div");
  d.constInts({7, -7, 7, -7}).constInts({2, 2, -2, -2});
  REQUIRE(d.run().isOk());
  CHECK(d.out().tensor().toInts() == Ints{3, -3, -3, 3});
  OpTester df("Div");
  df.constFloats({7.f}, {1}).constFloats({2.f}, {1});
  REQUIRE(df.run().isOk());
  CHECK(doublesOf(df.out()) == std::vector<double>{3.5});
  OpTester z("Div");
  z.constInts({1}).constInts({0});
  CHECK(mentions(z.run(), "division by zero"));
  OpTester p("Pow");
  p.constInts({2, 3, -2}).constInts({3, 0, 3});
  REQUIRE(p.run().isOk());
  CHECK(p.out().tensor().toInts() == Ints{8, 1, -8});
  OpTester pf("Pow");
  pf.constFloats({4.f, 9.f}, {2}).constFloats({0.5f}, {});
  REQUIRE(pf.run().isOk());
  CHECK(doublesOf(pf.out()) == std::vector<double>{2.0, 3.0});
}

TEST_CASE("Equal gives bool and folds", "[ops][binary]") {
  OpTester t("Equal");
  t.input(DType::I64, {3, 1}).input(DType::I64, {4});
  REQUIRE(t.run().isOk());
  CHECK(t.out().dtype == DType::Bool);
  CHECK(t.out().shape == ir::Shape{3, 4});
  OpTester c("Equal");
  c.constInts({1, 2, 3}).constInts({1, 0, 3});
  REQUIRE(c.run().isOk());
  CHECK(c.out().dtype == DType::Bool);
  CHECK(c.out().tensor().toInts() == Ints{1, 0, 1});
  OpTester mixed("Equal");
  mixed.input(DType::I64, {3}).input(DType::I32, {3});
  CHECK(mentions(mixed.run(), "dtype"));
}

TEST_CASE("Sum/Max/Min are variadic and fold", "[ops][binary]") {
  OpTester s("Sum");
  s.input(DType::F32, {2, 3}).input(DType::F32, {3}).input(DType::F32, {1, 1});
  REQUIRE(s.run().isOk());
  CHECK(s.out().shape == ir::Shape{2, 3});
  CHECK(ops::nodeFlops(*s.node()) == 12);
  OpTester one("Sum");
  one.input(DType::F32, {5});
  REQUIRE(one.run().isOk());
  CHECK(one.out().shape == ir::Shape{5});
  OpTester sc("Sum");
  sc.constInts({1, 2}).constInts({10, 20}).constInts({100}, {1});
  REQUIRE(sc.run().isOk());
  CHECK(sc.out().tensor().toInts() == Ints{111, 122});
  OpTester mx("Max");
  mx.constInts({1, 5, 3}).constInts({4, 2, 3}).constInts({0}, {});
  REQUIRE(mx.run().isOk());
  CHECK(mx.out().tensor().toInts() == Ints{4, 5, 3});
  OpTester mn("Min");
  mn.constFloats({1.f, 5.f}, {2}).constFloats({4.f, -2.f}, {2});
  REQUIRE(mn.run().isOk());
  CHECK(doublesOf(mn.out()) == std::vector<double>{1.0, -2.0});
  OpTester bad("Max");
  bad.input(DType::F32, {2}).input(DType::F32, {3});
  CHECK(mentions(bad.run(), "broadcast"));
  OpTester gap("Sum");
  gap.input(DType::F32, {2}).none().input(DType::F32, {2});
  CHECK(mentions(gap.run(), "omitted"));
}

TEST_CASE("Where: bool condition, dtype of x, folds", "[ops][binary]") {
  OpTester t("Where");
  t.input(DType::Bool, {2, 1}).input(DType::F16, {3}).input(DType::F16, {2, 3});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{2, 3});
  CHECK(t.out().dtype == DType::F16);
  OpTester c("Where");
  c.input(DType::F32, {2}).input(DType::F32, {2}).input(DType::F32, {2});
  CHECK(mentions(c.run(), "bool"));
  OpTester m("Where");
  m.input(DType::Bool, {2}).input(DType::F32, {2}).input(DType::I64, {2});
  CHECK(mentions(m.run(), "dtype"));
  uint8_t cond[] = {1, 0, 1};
  OpTester f("Where");
  f.constant(DType::Bool, {3}, cond, 3).constInts({1, 2, 3}).constInts({-1}, {});
  REQUIRE(f.run().isOk());
  CHECK(f.out().tensor().toInts() == Ints{1, -1, 3});
  // The opset an op exists from is checked by the ONNX importer (onnx_import_test.cpp).
}

TEST_CASE("legacy broadcast/axis attributes (opset < 7)", "[ops][binary]") {
  OpTester ok("Add", 6);
  ok.input(DType::F32, {2, 3, 4})
      .input(DType::F32, {3, 4})
      .attr("broadcast", int64_t{1})
      .attr("axis", int64_t{1});
  REQUIRE(ok.run().isOk());
  CHECK(ok.out().shape == ir::Shape{2, 3, 4});
  CHECK_FALSE(ok.node()->attrs.has("broadcast"));
  OpTester mid("Mul", 6);
  mid.input(DType::F32, {2, 3, 4, 5})
      .input(DType::F32, {3, 4})
      .attr("broadcast", int64_t{1})
      .attr("axis", int64_t{1});
  CHECK(mentions(mid.run(), "opset >= 7"));
}
