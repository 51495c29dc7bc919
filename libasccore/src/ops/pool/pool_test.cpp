// pool_test.cpp: pooling output shapes (pads, strides, dilations, ceil_mode), auto_pad
// resolution into explicit pads, the MaxPool Indices output and the error cases.
#include <catch2/catch.hpp>

#include "support/op_tester.h"

using namespace asc;
using asc::test::doublesOf;
using asc::test::mentions;
using asc::test::OpTester;
using ir::DType;
using Ints = std::vector<int64_t>;

TEST_CASE("MaxPool shape with pads and strides; Indices are int64", "[ops][pool]") {
  OpTester t("MaxPool");
  t.input(DType::F32, {1, 3, 32, 32})
      .attr("kernel_shape", Ints{3, 3})
      .attr("strides", Ints{2, 2})
      .attr("pads", Ints{1, 1, 1, 1})
      .outputs(2);
  REQUIRE(t.run().isOk());
  CHECK(t.out(0).shape == ir::Shape{1, 3, 16, 16});
  CHECK(t.out(1).shape == ir::Shape{1, 3, 16, 16});
  CHECK(t.out(1).dtype == DType::I64);
  CHECK(ops::nodeFlops(*t.node()) == 3 * 16 * 16 * 9);
}

TEST_CASE("MaxPool ceil_mode and dilations", "[ops][pool]") {
  OpTester f("MaxPool");
  f.input(DType::F32, {1, 1, 6, 6}).attr("kernel_shape", Ints{3, 3}).attr("strides", Ints{2, 2});
  REQUIRE(f.run().isOk());
  CHECK(f.out().shape == ir::Shape{1, 1, 2, 2});
  OpTester c("MaxPool", 10);
  c.input(DType::F32, {1, 1, 6, 6})
      .attr("kernel_shape", Ints{3, 3})
      .attr("strides", Ints{2, 2})
      .attr("ceil_mode", int64_t{1});
  REQUIRE(c.run().isOk());
  CHECK(c.out().shape == ir::Shape{1, 1, 3, 3});
  // ceil_mode may not start a window in the end padding: 5 with k2 s2 p1 -> 3, not 4.
  OpTester e("MaxPool", 10);
  e.input(DType::F32, {1, 1, 5})
      .attr("kernel_shape", Ints{2})
      .attr("strides", Ints{2})
      .attr("pads", Ints{1, 1})
      .attr("ceil_mode", int64_t{1});
  REQUIRE(e.run().isOk());
  CHECK(e.out().shape == ir::Shape{1, 1, 3});
  OpTester d("MaxPool", 10);
  d.input(DType::F32, {1, 1, 10, 10})
      .attr("kernel_shape", Ints{3, 3})
      .attr("dilations", Ints{2, 2});
  REQUIRE(d.run().isOk());
  CHECK(d.out().shape == ir::Shape{1, 1, 6, 6});
}

TEST_CASE("pool auto_pad resolves to explicit pads", "[ops][pool]") {
  OpTester u("MaxPool");
  u.input(DType::F32, {1, 1, 7, 7})
      .attr("kernel_shape", Ints{4, 4})
      .attr("strides", Ints{2, 2})
      .attr("auto_pad", std::string("SAME_UPPER"));
  REQUIRE(u.run().isOk());
  CHECK(u.out().shape == ir::Shape{1, 1, 4, 4});
  CHECK(u.node()->attrs.getInts("pads") == Ints{1, 1, 2, 2});
  CHECK(u.node()->attrs.getString("auto_pad", "") == "NOTSET");
  OpTester l("AveragePool");
  l.input(DType::F32, {1, 1, 7, 7})
      .attr("kernel_shape", Ints{4, 4})
      .attr("strides", Ints{2, 2})
      .attr("auto_pad", std::string("SAME_LOWER"));
  REQUIRE(l.run().isOk());
  CHECK(l.node()->attrs.getInts("pads") == Ints{2, 2, 1, 1});
  OpTester v("AveragePool");
  v.input(DType::F32, {1, 1, 7, 7})
      .attr("kernel_shape", Ints{3, 3})
      .attr("strides", Ints{2, 2})
      .attr("pads", Ints{1, 1, 1, 1})
      .attr("auto_pad", std::string("VALID"));
  REQUIRE(v.run().isOk());
  CHECK(v.out().shape == ir::Shape{1, 1, 3, 3});
  CHECK(v.node()->attrs.getInts("pads") == Ints{0, 0, 0, 0});
}

TEST_CASE("AveragePool count_include_pad and checks", "[ops][pool]") {
  OpTester t("AveragePool");
  t.input(DType::F16, {2, 8, 9, 9})
      .attr("kernel_shape", Ints{3, 3})
      .attr("pads", Ints{1, 1, 1, 1})
      .attr("count_include_pad", int64_t{1});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{2, 8, 9, 9});
  CHECK(t.out().dtype == DType::F16);
  OpTester i("AveragePool");
  i.input(DType::I32, {1, 1, 4, 4}).attr("kernel_shape", Ints{2, 2});
  CHECK(mentions(i.run(), "float"));
  OpTester c("AveragePool");
  c.input(DType::F32, {1, 1, 4, 4})
      .attr("kernel_shape", Ints{2, 2})
      .attr("count_include_pad", int64_t{2});
  CHECK(mentions(c.run(), "count_include_pad"));
}

TEST_CASE("pool errors: rank, kernel, pads, auto_pad", "[ops][pool]") {
  OpTester r("MaxPool");
  r.input(DType::F32, {4, 4}).attr("kernel_shape", Ints{2});
  CHECK(mentions(r.run(), "rank >= 3"));
  OpTester k("MaxPool");
  k.input(DType::F32, {1, 1, 4, 4});
  CHECK(mentions(k.run(), "kernel_shape is required"));
  OpTester kl("MaxPool");
  kl.input(DType::F32, {1, 1, 4, 4}).attr("kernel_shape", Ints{2});
  CHECK(mentions(kl.run(), "spatial dims"));
  OpTester big("MaxPool");
  big.input(DType::F32, {1, 1, 4, 4}).attr("kernel_shape", Ints{5, 5});
  CHECK(mentions(big.run(), "smaller than the kernel"));
  OpTester s("MaxPool");
  s.input(DType::F32, {1, 1, 4, 4}).attr("kernel_shape", Ints{2, 2}).attr("strides", Ints{0, 1});
  CHECK(mentions(s.run(), "positive"));
  OpTester np("MaxPool");
  np.input(DType::F32, {1, 1, 4, 4})
      .attr("kernel_shape", Ints{2, 2})
      .attr("pads", Ints{-1, 0, 0, 0});
  CHECK(mentions(np.run(), ">= 0"));
  OpTester ap("MaxPool");
  ap.input(DType::F32, {1, 1, 4, 4})
      .attr("kernel_shape", Ints{2, 2})
      .attr("auto_pad", std::string("SAME"));
  CHECK(mentions(ap.run(), "auto_pad"));
  OpTester so("MaxPool");
  so.input(DType::F32, {1, 1, 4, 4})
      .attr("kernel_shape", Ints{2, 2})
      .attr("storage_order", int64_t{3});
  CHECK(mentions(so.run(), "storage_order"));
}

TEST_CASE("GlobalAveragePool and GlobalMaxPool keep N, C", "[ops][pool]") {
  OpTester a("GlobalAveragePool");
  a.input(DType::F32, {2, 16, 7, 9});
  REQUIRE(a.run().isOk());
  CHECK(a.out().shape == ir::Shape{2, 16, 1, 1});
  CHECK(ops::nodeFlops(*a.node()) == 2 * 16 * 7 * 9);
  OpTester m("GlobalMaxPool");
  m.input(DType::I8, {1, 4, 5});
  REQUIRE(m.run().isOk());
  CHECK(m.out().shape == ir::Shape{1, 4, 1});
  OpTester r("GlobalMaxPool");
  r.input(DType::F32, {4, 5});
  CHECK(mentions(r.run(), "rank >= 3"));
}

TEST_CASE("pool re-inference on the canonical node is stable", "[ops][pool]") {
  OpTester t("MaxPool", 12);
  t.input(DType::F32, {1, 1, 7, 7})
      .attr("kernel_shape", Ints{4, 4})
      .attr("strides", Ints{2, 2})
      .attr("auto_pad", std::string("SAME_LOWER"))
      .attr("ceil_mode", int64_t{1});
  REQUIRE(t.run().isOk());
  const ir::Attrs attrs = t.node()->attrs;
  REQUIRE(ops::inferGraph(t.graph()).isOk());
  CHECK(t.node()->attrs == attrs);
  CHECK(t.out().shape == ir::Shape{1, 1, 4, 4});
}
