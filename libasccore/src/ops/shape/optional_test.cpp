// optional_test.cpp: the Optional ops on tensors: OptionalHasElement is true on a tensor (also a
// runtime input: its kernel writes it) and false with no input; OptionalGetElement and Optional
// pass their tensor through; an empty Optional is refused.
#include <catch2/catch.hpp>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("Optional ops on tensors", "[ops][shape]") {
  OpTester has("OptionalHasElement", 18);
  has.constFloats({1, 2}, {2});
  REQUIRE(has.run().isOk());
  CHECK(has.out().dtype == DType::Bool);
  CHECK(has.out().tensor().intAt(0) == 1);
  OpTester empty("OptionalHasElement", 18);
  REQUIRE(empty.run().isOk());
  CHECK(empty.out().tensor().intAt(0) == 0);
  OpTester get("OptionalGetElement", 18);
  get.constFloats({3, 4, 5}, {3});
  REQUIRE(get.run().isOk());
  CHECK(get.out().shape == ir::Shape{3});
  CHECK(get.out().tensor().floatAt(2) == 5);
  OpTester opt("Optional", 15);
  opt.input(DType::F32, {2, 2});
  REQUIRE(opt.run().isOk());
  CHECK(opt.out().shape == ir::Shape{2, 2});
  OpTester none("Optional", 15);
  CHECK(mentions(none.run(), "an empty optional"));
}
