// reduce_test.cpp: ReduceMean/Sum/Max shapes, keepdims, axes as attribute or input (ReduceSum
// since opset 13), noop_with_empty_axes, errors and constant folding.
#include <catch2/catch.hpp>

#include "support/op_tester.h"

using namespace asc;
using asc::test::doublesOf;
using asc::test::mentions;
using asc::test::OpTester;
using ir::DType;
using Ints = std::vector<int64_t>;

TEST_CASE("ReduceMean axes attribute and keepdims", "[ops][reduce]") {
  OpTester t("ReduceMean");
  t.input(DType::F32, {2, 3, 4, 5}).attr("axes", Ints{-1, 2});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{2, 3, 1, 1});
  CHECK(t.node()->attrs.getInts("axes") == Ints{2, 3});
  CHECK(ops::nodeFlops(*t.node()) == 120);
  OpTester k("ReduceMax");
  k.input(DType::F32, {2, 3, 4}).attr("axes", Ints{1}).attr("keepdims", int64_t{0});
  REQUIRE(k.run().isOk());
  CHECK(k.out().shape == ir::Shape{2, 4});
  OpTester all("ReduceMean");
  all.input(DType::F32, {2, 3}).attr("keepdims", int64_t{0});
  REQUIRE(all.run().isOk());
  CHECK(all.out().shape == ir::Shape{});
  CHECK(all.node()->attrs.getInts("axes") == Ints{0, 1});
}

TEST_CASE("ReduceSum axes: attribute at opset 11, input at 13", "[ops][reduce]") {
  OpTester a("ReduceSum", 11);
  a.input(DType::F32, {2, 3, 4}).attr("axes", Ints{1});
  REQUIRE(a.run().isOk());
  CHECK(a.out().shape == ir::Shape{2, 1, 4});
  OpTester i("ReduceSum", 13);
  i.input(DType::F32, {2, 3, 4}).constInts({0, -1}).attr("keepdims", int64_t{0});
  REQUIRE(i.run().isOk());
  CHECK(i.out().shape == ir::Shape{3});
  CHECK(i.node()->inputs.size() == 1);
  CHECK(i.node()->attrs.getInts("axes") == Ints{0, 2});
  OpTester noop("ReduceSum", 13);
  noop.input(DType::F32, {2, 3}).attr("noop_with_empty_axes", int64_t{1});
  REQUIRE(noop.run().isOk());
  CHECK(noop.out().shape == ir::Shape{2, 3});
  OpTester dyn("ReduceSum", 13);
  dyn.input(DType::F32, {2, 3}).input(DType::I64, {1});
  CHECK(mentions(dyn.run(), "compile time"));
}

TEST_CASE("reduce errors", "[ops][reduce]") {
  OpTester r("ReduceMean");
  r.input(DType::F32, {2, 3}).attr("axes", Ints{2});
  CHECK(mentions(r.run(), "out of range"));
  OpTester d("ReduceMax");
  d.input(DType::F32, {2, 3}).attr("axes", Ints{1, -1});
  CHECK(mentions(d.run(), "twice"));
  OpTester k("ReduceSum", 11);
  k.input(DType::F32, {2, 3}).attr("keepdims", int64_t{2});
  CHECK(mentions(k.run(), "keepdims"));
}

TEST_CASE("reductions fold on constants", "[ops][reduce]") {
  OpTester s("ReduceSum", 13);
  s.constInts({1, 2, 3, 4, 5, 6}, {2, 3}).constInts({1});
  REQUIRE(s.run().isOk());
  REQUIRE(s.out().isConstant());
  CHECK(s.out().shape == ir::Shape{2, 1});
  CHECK(s.out().tensor().toInts() == Ints{6, 15});
  OpTester m("ReduceMax");
  m.constFloats({1, 9, 3, 4, 5, 6}, {2, 3}).attr("axes", Ints{0}).attr("keepdims", int64_t{0});
  REQUIRE(m.run().isOk());
  ir::Tensor v = m.out().tensor();
  CHECK(v.floatAt(0) == 4.0);
  CHECK(v.floatAt(1) == 9.0);
  CHECK(v.floatAt(2) == 6.0);
  OpTester mean("ReduceMean");
  mean.constFloats({1, 2, 3, 4}, {4});
  REQUIRE(mean.run().isOk());
  CHECK(mean.out().tensor().floatAt(0) == 2.5);
}

TEST_CASE("reduce re-inference on the canonical node is stable", "[ops][reduce]") {
  for (int64_t noop : {0, 1}) {
    OpTester t("ReduceSum", 13);
    t.input(DType::F32, {2, 3}).attr("noop_with_empty_axes", noop);
    REQUIRE(t.run().isOk());
    const ir::Attrs attrs = t.node()->attrs;
    const ir::Shape shape = t.out().shape;
    REQUIRE(ops::inferGraph(t.graph()).isOk());
    CHECK(t.node()->attrs == attrs);
    CHECK(t.out().shape == shape);
  }
}
