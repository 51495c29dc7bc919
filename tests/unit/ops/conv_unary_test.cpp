// conv_unary_test.cpp: shape inference for Conv/ConvTranspose and the unary ops.
#include <catch2/catch.hpp>

#include "testkit/op_tester.h"

using namespace asc;
using asc::test::OpTester;
using ir::DType;

TEST_CASE("Conv output shape with pads, strides, dilations, groups", "[ops][conv]") {
  OpTester t("Conv");
  t.input(DType::F32, {1, 4, 10, 10})
      .input(DType::F32, {8, 2, 3, 3})
      .input(DType::F32, {8})
      .attr("strides", std::vector<int64_t>{2, 2})
      .attr("pads", std::vector<int64_t>{1, 1, 1, 1})
      .attr("group", int64_t(2));
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{1, 8, 5, 5});
  OpTester d("Conv");
  d.input(DType::F32, {1, 3, 9, 9})
      .input(DType::F32, {4, 3, 3, 3})
      .attr("dilations", std::vector<int64_t>{2, 2});
  REQUIRE(d.run().isOk());
  CHECK(d.out().shape == ir::Shape{1, 4, 5, 5});
}

TEST_CASE("Conv auto_pad SAME_UPPER resolves to explicit pads", "[ops][conv]") {
  OpTester t("Conv");
  t.input(DType::F32, {1, 1, 7, 7})
      .input(DType::F32, {1, 1, 4, 4})
      .attr("auto_pad", std::string("SAME_UPPER"))
      .attr("strides", std::vector<int64_t>{2, 2});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{1, 1, 4, 4});
  CHECK(t.node()->attrs.getInts("pads") == std::vector<int64_t>{1, 1, 2, 2});
}

TEST_CASE("Conv rejects mismatched channels and bad bias", "[ops][conv]") {
  OpTester t("Conv");
  t.input(DType::F32, {1, 3, 8, 8}).input(DType::F32, {4, 2, 3, 3});
  Status s = t.run();
  REQUIRE(s.code() == ErrorCode::InvalidModel);
  CHECK(s.message().find("input channels") != std::string::npos);
  OpTester b("Conv");
  b.input(DType::F32, {1, 3, 8, 8}).input(DType::F32, {4, 3, 3, 3}).input(DType::F32, {5});
  CHECK(b.run().message().find("bias") != std::string::npos);
  OpTester r("Conv");
  r.input(DType::F32, {3, 8}).input(DType::F32, {4, 3, 3});
  CHECK_FALSE(r.run().isOk());
}

TEST_CASE("ConvTranspose output shape and output_shape", "[ops][conv]") {
  OpTester t("ConvTranspose");
  t.input(DType::F32, {1, 8, 4, 4})
      .input(DType::F32, {8, 4, 2, 2})
      .attr("strides", std::vector<int64_t>{2, 2});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{1, 4, 8, 8});
  OpTester o("ConvTranspose");
  o.input(DType::F32, {1, 8, 4, 4})
      .input(DType::F32, {8, 2, 3, 3})
      .attr("strides", std::vector<int64_t>{2, 2})
      .attr("group", int64_t(2))
      .attr("output_shape", std::vector<int64_t>{8, 8});
  REQUIRE(o.run().isOk());
  CHECK(o.out().shape == ir::Shape{1, 4, 8, 8});
}

TEST_CASE("Clip constant min/max become attributes at every opset", "[ops][unary]") {
  float lo = 0.f, hi = 6.f;
  OpTester t("Clip", 13);
  t.input(DType::F32, {2, 3}).constant(DType::F32, {}, &lo, 4).constant(DType::F32, {}, &hi, 4);
  REQUIRE(t.run().isOk());
  CHECK(t.node()->inputs.size() == 1);
  CHECK(t.node()->attrs.getFloat("max", 0) == 6.f);
  OpTester old("Clip", 9);
  old.input(DType::F32, {2, 3}).attr("min", 0.f).attr("max", 6.f);
  REQUIRE(old.run().isOk());
  CHECK(old.out().shape == ir::Shape{2, 3});
  // A bound computed at run time stays an input (the kernel reads it on every run).
  OpTester dyn("Clip", 13);
  dyn.input(DType::F32, {2, 3}).input(DType::F32, {});
  REQUIRE(dyn.run().isOk());
  CHECK(dyn.node()->inputs.size() == 2);
  CHECK_FALSE(dyn.node()->attrs.has("min"));
}

TEST_CASE("unary ops keep shape; float-only ops refuse ints; constants fold", "[ops][unary]") {
  OpTester t("Sigmoid");
  t.input(DType::F32, {2, 5});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{2, 5});
  OpTester i("Tanh");
  i.input(DType::I64, {2});
  CHECK_FALSE(i.run().isOk());
  OpTester c("Sqrt");
  c.constFloats({4.f, 9.f}, {2});
  REQUIRE(c.run().isOk());
  REQUIRE(c.out().isConstant());
  CHECK(c.out().tensor().floatAt(1) == 3.0);
}
