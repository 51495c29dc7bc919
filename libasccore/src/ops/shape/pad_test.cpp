// pad_test.cpp: Pad (pad.cpp): the attributes before opset 11, the inputs since, and folding in
// every mode.
#include <catch2/catch.hpp>

#include <limits>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("Pad: attributes before 11, inputs since, modes fold", "[ops][shape]") {
  OpTester a("Pad", 2);
  a.input(DType::F32, {2, 3}).attr("pads", Ints{0, 1, 0, 2});
  REQUIRE(a.run().isOk());
  CHECK(a.out().shape == ir::Shape{2, 6});
  float v = 9.0f;
  OpTester i("Pad", 13);
  i.input(DType::F32, {2, 3}).constInts({1, 1, 1, 1}).constant(DType::F32, {}, &v, 4);
  REQUIRE(i.run().isOk());
  CHECK(i.out().shape == ir::Shape{4, 5});
  CHECK(i.node()->inputs.size() == 1);
  CHECK(i.node()->attrs.getFloat("value", 0) == 9.0f);
  OpTester ax("Pad", 18);
  ax.input(DType::F32, {2, 3}).constInts({2, 3}).none().constInts({-1});
  REQUIRE(ax.run().isOk());
  CHECK(ax.out().shape == ir::Shape{2, 8});
  CHECK(ax.node()->attrs.getInts("pads") == Ints{0, 2, 0, 3});

  OpTester c("Pad", 13);
  c.constFloats({1, 2, 3}, {3}).constInts({2, 1}).constant(DType::F32, {}, &v, 4);
  REQUIRE(c.run().isOk());
  CHECK(floatsOf(c.out()) == std::vector<float>{9, 9, 1, 2, 3, 9});
  OpTester r("Pad", 13);
  r.constFloats({1, 2, 3}, {3}).constInts({2, 1}).attr("mode", std::string("reflect"));
  REQUIRE(r.run().isOk());
  CHECK(floatsOf(r.out()) == std::vector<float>{3, 2, 1, 2, 3, 2});
  OpTester e("Pad", 13);
  e.constFloats({1, 2, 3}, {3}).constInts({1, 2}).attr("mode", std::string("edge"));
  REQUIRE(e.run().isOk());
  CHECK(floatsOf(e.out()) == std::vector<float>{1, 1, 2, 3, 3, 3});
  OpTester crop("Pad", 13);
  crop.constFloats({1, 2, 3}, {3}).constInts({-1, 0});
  REQUIRE(crop.run().isOk());
  CHECK(floatsOf(crop.out()) == std::vector<float>{2, 3});

  OpTester len("Pad", 13);
  len.input(DType::F32, {2, 3}).constInts({1, 1});
  CHECK(mentions(len.run(), "2 * rank"));
  OpTester refl("Pad", 13);
  refl.input(DType::F32, {2}).constInts({2, 0}).attr("mode", std::string("reflect"));
  CHECK(mentions(refl.run(), "reflect"));
  OpTester wrap18("Pad", 18);
  wrap18.input(DType::F32, {2}).constInts({1, 0}).attr("mode", std::string("wrap"));
  CHECK(mentions(wrap18.run(), "not one of Pad-2's"));
  // Pad-19 wrap folds too, around the dim as often as it takes (indices modulo the size).
  OpTester w("Pad", 19);
  w.constFloats({1, 2, 3}, {3}).constInts({4, 2}).attr("mode", std::string("wrap"));
  REQUIRE(w.run().isOk());
  CHECK(floatsOf(w.out()) == std::vector<float>{3, 1, 2, 3, 1, 2, 3, 1, 2});
}
