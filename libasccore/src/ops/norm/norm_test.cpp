// norm_test.cpp: BatchNormalization (inference only), InstanceNormalization,
// LayerNormalization (opset 17, stats outputs) and LRN: shapes, parameter checks, errors; the
// LayerNormalization kernel with its Mean/InvStdDev outputs and MeanVarianceNormalization
// against a naive reference.
#include <catch2/catch.hpp>

#include <cmath>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

namespace {
OpTester& bnParams(OpTester& t, int64_t c) {
  for (int i = 0; i < 4; ++i) t.input(DType::F32, {c});
  return t;
}
}  // namespace

TEST_CASE("BatchNormalization inference", "[ops][norm]") {
  OpTester t("BatchNormalization", 15);
  t.input(DType::F32, {2, 8, 5, 5});
  bnParams(t, 8);
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{2, 8, 5, 5});
  CHECK(t.node()->attrs.getFloat("epsilon", 0) == Approx(1e-5));
  OpTester two("BatchNormalization", 9);
  two.input(DType::F16, {4, 3});
  for (int i = 0; i < 4; ++i) two.input(DType::F16, {3});
  REQUIRE(two.run().isOk());
}

TEST_CASE("BatchNormalization refuses training mode and bad parameters", "[ops][norm]") {
  OpTester tr("BatchNormalization", 15);
  tr.input(DType::F32, {2, 8, 5, 5});
  bnParams(tr, 8).outputs(3);
  CHECK(mentions(tr.run(), "training-mode BatchNormalization"));
  OpTester tm("BatchNormalization", 15);
  tm.input(DType::F32, {2, 8, 5, 5});
  bnParams(tm, 8).attr("training_mode", int64_t{1});
  CHECK(mentions(tm.run(), "training_mode"));
  OpTester c("BatchNormalization", 15);
  c.input(DType::F32, {2, 8, 5, 5});
  bnParams(c, 4);
  CHECK(mentions(c.run(), "expected [8]"));
  OpTester r("BatchNormalization", 15);
  r.input(DType::F32, {8});
  bnParams(r, 8);
  CHECK(mentions(r.run(), "rank >= 2"));
  OpTester few("BatchNormalization", 15);
  few.input(DType::F32, {2, 8}).input(DType::F32, {8});
  CHECK_FALSE(few.run().isOk());
}

TEST_CASE("InstanceNormalization", "[ops][norm]") {
  OpTester t("InstanceNormalization");
  t.input(DType::F32, {2, 4, 8, 8}).input(DType::F32, {4}).input(DType::F32, {4});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{2, 4, 8, 8});
  OpTester b("InstanceNormalization");
  b.input(DType::F32, {2, 4, 8, 8}).input(DType::F32, {4}).input(DType::F32, {2, 2});
  CHECK(mentions(b.run(), "bias"));
  OpTester r("InstanceNormalization");
  r.input(DType::F32, {2, 4}).input(DType::F32, {4}).input(DType::F32, {4});
  CHECK(mentions(r.run(), "rank >= 3"));
}

TEST_CASE("LayerNormalization shapes, stats outputs and opset", "[ops][norm]") {
  OpTester t("LayerNormalization", 17);
  t.input(DType::F16, {2, 5, 64}).input(DType::F16, {64}).input(DType::F16, {64}).outputs(3);
  REQUIRE(t.run().isOk());
  CHECK(t.out(0).shape == ir::Shape{2, 5, 64});
  CHECK(t.out(0).dtype == DType::F16);
  CHECK(t.out(1).shape == ir::Shape{2, 5, 1});
  CHECK(t.out(2).dtype == DType::F32);
  CHECK(t.node()->attrs.getInt("axis", 0) == 2);
  OpTester a("LayerNormalization", 17);
  a.input(DType::F32, {2, 5, 64}).input(DType::F32, {5, 64}).attr("axis", int64_t{1});
  REQUIRE(a.run().isOk());
  OpTester s("LayerNormalization", 17);
  s.input(DType::F32, {2, 5, 64}).input(DType::F32, {32});
  CHECK(mentions(s.run(), "scale"));
  OpTester ax("LayerNormalization", 17);
  ax.input(DType::F32, {2, 5}).input(DType::F32, {5}).attr("axis", int64_t{2});
  CHECK(mentions(ax.run(), "axis 2"));
  // The opset an op exists from is checked by the ONNX importer (onnx_import_test.cpp).
}

TEST_CASE("LRN needs a positive size", "[ops][norm]") {
  OpTester t("LRN");
  t.input(DType::F32, {1, 16, 8, 8}).attr("size", int64_t{5});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{1, 16, 8, 8});
  CHECK(t.node()->attrs.getFloat("beta", 0) == 0.75f);
  OpTester n("LRN");
  n.input(DType::F32, {1, 16, 8, 8});
  CHECK(mentions(n.run(), "size is required"));
  OpTester z("LRN");
  z.input(DType::F32, {1, 16, 8, 8}).attr("size", int64_t{0});
  CHECK(mentions(z.run(), "positive"));
  OpTester r("LRN");
  r.input(DType::F32, {16}).attr("size", int64_t{3});
  CHECK(mentions(r.run(), "rank >= 3"));
}

TEST_CASE("LayerNormalization kernel writes Y, Mean and InvStdDev", "[ops][norm]") {
  const int64_t outer = 3, inner = 4;
  std::vector<float> x(outer * inner), scale(inner), bias(inner);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.37f * static_cast<float>((i * 5) % 7) - 1.f;
  for (int64_t i = 0; i < inner; ++i) {
    scale[i] = 0.5f + 0.25f * static_cast<float>(i);
    bias[i] = 0.1f * static_cast<float>(i) - 0.2f;
  }
  const float eps = 1e-3f;
  std::vector<double> y(x.size()), mean(outer), inv(outer);
  for (int64_t o = 0; o < outer; ++o) {
    double m = 0, v = 0;
    for (int64_t i = 0; i < inner; ++i) m += x[o * inner + i];
    m /= inner;
    for (int64_t i = 0; i < inner; ++i) v += (x[o * inner + i] - m) * (x[o * inner + i] - m);
    v /= inner;
    mean[o] = m;
    inv[o] = 1 / std::sqrt(v + eps);
    for (int64_t i = 0; i < inner; ++i)
      y[o * inner + i] = (x[o * inner + i] - m) * inv[o] * scale[i] + bias[i];
  }
  auto run = [&](int out) {
    OpTester t("LayerNormalization", 17);
    t.input(DType::F32, {outer, inner})
        .input(DType::F32, {inner})
        .input(DType::F32, {inner})
        .attr("epsilon", eps)
        .outputs(3);
    return asc::test::runKernel<float>(
        t, {asc::test::bytesOf(x), asc::test::bytesOf(scale), asc::test::bytesOf(bias)}, out);
  };
  const auto gy = run(0), gm = run(1), gi = run(2);
  for (size_t i = 0; i < y.size(); ++i) CHECK(gy[i] == Approx(y[i]).epsilon(1e-5).margin(1e-6));
  for (int64_t o = 0; o < outer; ++o) {
    CHECK(gm[o] == Approx(mean[o]).epsilon(1e-6).margin(1e-7));
    CHECK(gi[o] == Approx(inv[o]).epsilon(1e-6));
  }
}

TEST_CASE("MeanVarianceNormalization over the default and given axes", "[ops][norm]") {
  const int64_t N = 2, C = 3, H = 2, W = 2;
  std::vector<float> x(N * C * H * W);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7) % 5) - 1.5f;
  // Default axes [0, 2, 3]: statistics per channel over N, H, W.
  std::vector<double> want(x.size());
  for (int64_t c = 0; c < C; ++c) {
    double s = 0, q = 0;
    int cnt = 0;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t i = 0; i < H * W; ++i) {
        const double v = x[(n * C + c) * H * W + i];
        s += v;
        q += v * v;
        ++cnt;
      }
    const double m = s / cnt, sd = std::sqrt(q / cnt - m * m);
    for (int64_t n = 0; n < N; ++n)
      for (int64_t i = 0; i < H * W; ++i)
        want[(n * C + c) * H * W + i] = (x[(n * C + c) * H * W + i] - m) / (sd + 1e-9);
  }
  OpTester t("MeanVarianceNormalization", 13);
  t.input(DType::F32, {N, C, H, W});
  auto got = asc::test::runKernel<float>(t, {asc::test::bytesOf(x)});
  for (size_t i = 0; i < x.size(); ++i) CHECK(got[i] == Approx(want[i]).epsilon(1e-5).margin(1e-6));
  OpTester bad("MeanVarianceNormalization", 13);
  bad.input(DType::F32, {2, 3}).attr("axes", std::vector<int64_t>{0, 2});
  CHECK(mentions(bad.run(), "out of range"));
}

TEST_CASE("GroupNormalization-18 checks its groups and per-group parameters", "[ops][norm]") {
  OpTester ok("GroupNormalization", 18);
  ok.input(DType::F32, {1, 6, 2, 2}).input(DType::F32, {3}).input(DType::F32, {3});
  ok.attr("num_groups", int64_t{3});
  CHECK(ok.run().isOk());
  OpTester split("GroupNormalization", 18);
  split.input(DType::F32, {1, 6, 2, 2}).input(DType::F32, {4}).input(DType::F32, {4});
  split.attr("num_groups", int64_t{4});
  CHECK(mentions(split.run(), "divide the 6 channels"));
  OpTester per_channel("GroupNormalization", 18);
  per_channel.input(DType::F32, {1, 6, 2, 2}).input(DType::F32, {6}).input(DType::F32, {6});
  per_channel.attr("num_groups", int64_t{3});
  CHECK(mentions(per_channel.run(), "one value per group"));
  OpTester none("GroupNormalization", 18);
  none.input(DType::F32, {1, 6, 2, 2}).input(DType::F32, {3}).input(DType::F32, {3});
  CHECK(mentions(none.run(), "num_groups is required"));
}
