// resize_test.cpp: Resize at opset 10 (scales input) and 11+ (roi, scales, sizes), opset 18
// axes, the canonical attributes, and Upsample at opset 7 (attribute) and 9 (input).
#include <catch2/catch.hpp>

#include "testkit/kernel_runner.h"
#include "testkit/op_tester.h"

using namespace asc::optest;

TEST_CASE("Resize with scales (opset 10 and 13)", "[ops][resize]") {
  OpTester v10("Resize", 10);
  v10.input(DType::F32, {1, 3, 10, 10}).constFloats({1, 1, 2, 2}, {4});
  REQUIRE(v10.run().isOk());
  CHECK(v10.out().shape == ir::Shape{1, 3, 20, 20});
  CHECK(v10.node()->inputs.size() == 1);
  CHECK(v10.node()->attrs.getString("coordinate_transformation_mode", "") == "asymmetric");
  OpTester t("Resize", 13);
  t.input(DType::F32, {1, 3, 10, 10})
      .none()
      .constFloats({1, 1, 1.5f, 0.5f}, {4})
      .attr("mode", std::string("linear"));
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{1, 3, 15, 5});
  CHECK(t.node()->attrs.getInts("sizes") == Ints{1, 3, 15, 5});
  CHECK(t.node()->attrs.getFloats("scales").size() == 4);
  CHECK(t.node()->attrs.getString("coordinate_transformation_mode", "") == "half_pixel");
  CHECK(t.node()->attrs.getString("nearest_mode", "") == "round_prefer_floor");
  CHECK(t.node()->attrs.getFloat("cubic_coeff_a", 0) == -0.75f);
}

TEST_CASE("Resize with sizes; opset 11 empty scales; opset 18 axes", "[ops][resize]") {
  OpTester t("Resize", 11);
  t.input(DType::F32, {1, 3, 10, 10})
      .constFloats({}, {0})
      .constFloats({}, {0})
      .constInts({1, 3, 7, 9});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{1, 3, 7, 9});
  CHECK_FALSE(t.node()->attrs.has("scales"));
  OpTester ax("Resize", 18);
  ax.input(DType::F32, {1, 3, 10, 10}).none().none().constInts({20, 30}).attr("axes", Ints{2, 3});
  REQUIRE(ax.run().isOk());
  CHECK(ax.out().shape == ir::Shape{1, 3, 20, 30});
  OpTester keep("Resize", 18);
  keep.input(DType::F32, {1, 3, 10, 20})
      .none()
      .none()
      .constInts({1, 3, 30, 30})
      .attr("keep_aspect_ratio_policy", std::string("not_larger"));
  REQUIRE(keep.run().isOk());
  CHECK(keep.out().shape == ir::Shape{1, 3, 15, 30});
}

TEST_CASE("Resize errors", "[ops][resize]") {
  OpTester both("Resize", 13);
  both.input(DType::F32, {1, 1, 4, 4})
      .none()
      .constFloats({1, 1, 2, 2}, {4})
      .constInts({1, 1, 8, 8});
  CHECK(mentions(both.run(), "exactly one"));
  OpTester none("Resize", 13);
  none.input(DType::F32, {1, 1, 4, 4}).none().none().none();
  CHECK(mentions(none.run(), "scales"));
  OpTester dyn("Resize", 13);
  dyn.input(DType::F32, {1, 1, 4, 4}).none().input(DType::F32, {4});
  CHECK(mentions(dyn.run(), "constant"));
  OpTester len("Resize", 13);
  len.input(DType::F32, {1, 1, 4, 4}).none().constFloats({2, 2}, {2});
  CHECK(mentions(len.run(), "rank 4"));
  OpTester mode("Resize", 13);
  mode.input(DType::F32, {1, 1, 4, 4})
      .none()
      .constFloats({1, 1, 2, 2}, {4})
      .attr("mode", std::string("area"));
  CHECK(mentions(mode.run(), "mode 'area'"));
  OpTester neg("Resize", 13);
  neg.input(DType::F32, {1, 1, 4, 4}).none().constFloats({1, 1, -2, 2}, {4});
  CHECK(mentions(neg.run(), "positive"));
}

TEST_CASE("Upsample scales: attribute at opset 7, input at 9", "[ops][resize]") {
  OpTester a("Upsample", 7);
  a.input(DType::F32, {1, 3, 5, 5}).attr("scales", std::vector<float>{1, 1, 2, 3});
  REQUIRE(a.run().isOk());
  CHECK(a.out().shape == ir::Shape{1, 3, 10, 15});
  CHECK(a.node()->attrs.getInts("sizes") == Ints{1, 3, 10, 15});
  OpTester i("Upsample", 9);
  i.input(DType::F32, {1, 3, 5, 5})
      .constFloats({1, 1, 2, 2}, {4})
      .attr("mode", std::string("linear"));
  REQUIRE(i.run().isOk());
  CHECK(i.out().shape == ir::Shape{1, 3, 10, 10});
  CHECK(i.node()->inputs.size() == 1);
  OpTester down("Upsample", 9);
  down.input(DType::F32, {1, 3, 4, 4}).constFloats({1, 1, 0.5f, 0.5f}, {4});
  CHECK(mentions(down.run(), ">= 1"));
  OpTester miss("Upsample", 7);
  miss.input(DType::F32, {1, 3, 4, 4});
  CHECK(mentions(miss.run(), "scales are required"));
  // The opset an op exists from is checked by the ONNX importer (onnx_import_test.cpp).
}

TEST_CASE("canonical Resize/Upsample re-infer to the same node", "[ops][resize]") {
  auto stable = [](OpTester& t) {
    REQUIRE(t.run().isOk());
    const ir::Attrs attrs = t.node()->attrs;
    const ir::Shape shape = t.out().shape;
    REQUIRE(ops::inferGraph(t.graph()).isOk());
    CHECK(t.node()->attrs == attrs);
    CHECK(t.out().shape == shape);
  };
  OpTester r10("Resize", 10);
  r10.input(DType::F32, {1, 3, 10, 10}).constFloats({1, 1, 2, 2}, {4});
  stable(r10);
  OpTester r18("Resize", 18);
  r18.input(DType::F32, {1, 3, 10, 20})
      .none()
      .none()
      .constInts({30, 30})
      .attr("axes", Ints{2, 3})
      .attr("keep_aspect_ratio_policy", std::string("not_smaller"));
  stable(r18);
  CHECK(r18.out().shape == ir::Shape{1, 3, 30, 60});
  OpTester up("Upsample", 9);
  up.input(DType::F32, {1, 3, 5, 5}).constFloats({1, 1, 2, 2}, {4});
  stable(up);
}

TEST_CASE("Resize-18 antialias widens the filter when downscaling", "[ops][resize]") {
  // 0..7 halved, half_pixel, linear: output o sits at 2o + 0.5 and the stretched triangle
  // gives indices 2o-1..2o+2 the weights 1/8, 3/8, 3/8, 1/8 (index -1 reads the edge, 0; 8
  // reads 7), worked by hand.
  const std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7};
  OpTester aa("Resize", 18);
  aa.input(DType::F32, {1, 1, 1, 8})
      .none()
      .constFloats({1, 1, 1, 0.5f}, {4})
      .attr("mode", std::string("linear"))
      .attr("antialias", int64_t{1});
  const std::vector<float> got = runKernel<float>(aa, {bytesOf(x)});
  const std::vector<float> want = {0.625f, 2.5f, 4.5f, 6.375f};
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-6));
  // Without antialias the same halving interpolates between two neighbours only.
  OpTester plain("Resize", 18);
  plain.input(DType::F32, {1, 1, 1, 8})
      .none()
      .constFloats({1, 1, 1, 0.5f}, {4})
      .attr("mode", std::string("linear"));
  CHECK(runKernel<float>(plain, {bytesOf(x)}) == std::vector<float>{0.5f, 2.5f, 4.5f, 6.5f});
  // Nearest ignores antialias (the attribute leaves the node); tf_crop_and_resize refuses it.
  OpTester nearest("Resize", 18);
  nearest.input(DType::F32, {1, 1, 4, 4}).none().constFloats({1, 1, 0.5f, 0.5f}, {4});
  nearest.attr("antialias", int64_t{1});
  REQUIRE(nearest.run().isOk());
  CHECK_FALSE(nearest.node()->attrs.has("antialias"));
  OpTester crop("Resize", 18);
  crop.input(DType::F32, {1, 1, 4, 4})
      .constFloats({0, 0, 0, 0, 1, 1, 1, 1}, {8})
      .constFloats({1, 1, 0.5f, 0.5f}, {4})
      .attr("mode", std::string("linear"))
      .attr("coordinate_transformation_mode", std::string("tf_crop_and_resize"))
      .attr("antialias", int64_t{1});
  CHECK(mentions(crop.run(), "antialias=1 with tf_crop_and_resize"));
}
