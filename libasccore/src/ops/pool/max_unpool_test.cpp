// max_unpool_test.cpp: MaxUnpool against a naive scatter of MaxPool's own indices (computed here
// by a naive max pooling), the ONNX node tests' data with and without output_shape, and its checks.
#include <catch2/catch.hpp>

#include <random>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("MaxUnpool: the node tests' data", "[ops][pool][maxunpool]") {
  // test_maxunpool_export_without_output_shape
  OpTester t("MaxUnpool", 11);
  t.input(DType::F32, {1, 1, 2, 2}).input(DType::I64, {1, 1, 2, 2});
  t.attr("kernel_shape", Ints{2, 2}).attr("strides", Ints{2, 2});
  CHECK(runKernel<float>(t, {bytesOf(Floats{1, 2, 3, 4}), bytesOf(Ints{5, 7, 13, 15})}) ==
        Floats{0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4});
  // test_maxunpool_export_with_output_shape: the indices count in the default 4x4 output and
  // keep their coordinates in the 5x5 one.
  OpTester s("MaxUnpool", 11);
  s.input(DType::F32, {1, 1, 2, 2}).input(DType::I64, {1, 1, 2, 2}).constInts({1, 1, 5, 5});
  s.attr("kernel_shape", Ints{2, 2}).attr("strides", Ints{2, 2});
  const Floats got =
      runKernel<float>(s, {bytesOf(Floats{5, 6, 7, 8}), bytesOf(Ints{5, 7, 13, 15})});
  Floats want(25, 0.f);
  want[6] = 5;
  want[8] = 6;
  want[16] = 7;
  want[18] = 8;
  CHECK(got == want);
}

TEST_CASE("MaxUnpool inverts a naive MaxPool with indices", "[ops][pool][maxunpool]") {
  // MaxPool 3x3 stride 2 pad 1 over [2, 3, 7, 7]: output [2, 3, 4, 4].
  const int64_t n = 2, c = 3, h = 7, w = 7, k = 3, s = 2, p = 1;
  const int64_t oh = (h + 2 * p - k) / s + 1, ow = (w + 2 * p - k) / s + 1;
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> val(-5.f, 5.f);
  Floats x(n * c * h * w);
  for (auto& v : x) v = val(rng);
  Floats pooled;
  Ints idx;
  for (int64_t b = 0; b < n * c; ++b)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        float best = -1e30f;
        int64_t at = -1;
        for (int64_t a = 0; a < k; ++a)
          for (int64_t d = 0; d < k; ++d) {
            const int64_t y = i * s - p + a, xx = j * s - p + d;
            if (y < 0 || y >= h || xx < 0 || xx >= w) continue;
            const int64_t flat = (b * h + y) * w + xx;
            if (x[flat] > best) best = x[flat], at = flat;
          }
        pooled.push_back(best);
        idx.push_back(at);
      }
  // The default unpooled size, (4 - 1) * 2 + 3 - 2 = 7, is the pooled input's.
  OpTester t("MaxUnpool", 11);
  t.input(DType::F32, {n, c, oh, ow}).input(DType::I64, {n, c, oh, ow});
  t.attr("kernel_shape", Ints{k, k}).attr("strides", Ints{s, s}).attr("pads", Ints{p, p, p, p});
  Floats want(x.size(), 0.f);
  for (size_t e = 0; e < idx.size(); ++e) want[idx[e]] = pooled[e];
  CHECK(runKernel<float>(t, {bytesOf(pooled), bytesOf(idx)}) == want);
}

TEST_CASE("MaxUnpool: checks", "[ops][pool][maxunpool]") {
  OpTester dyn("MaxUnpool", 11);
  dyn.input(DType::F32, {1, 1, 2, 2}).input(DType::I64, {1, 1, 2, 2}).input(DType::I64, {4});
  dyn.attr("kernel_shape", Ints{2, 2});
  CHECK(mentions(dyn.run(), "input 2 ('in2') must be known at compile time (a constant)"));
  OpTester ks("MaxUnpool", 11);
  ks.input(DType::F32, {1, 1, 2, 2}).input(DType::I64, {1, 1, 2, 2});
  CHECK(mentions(ks.run(), "kernel_shape"));
  OpTester neg("MaxUnpool", 11);
  neg.input(DType::F32, {1, 1, 2, 2}).input(DType::I64, {1, 1, 2, 2});
  neg.attr("kernel_shape", Ints{2, 2}).attr("pads", Ints{4, 4, 4, 4});
  CHECK(mentions(neg.run(), "not valid"));
  // An index outside the output is an error of the run, not a write out of bounds.
  OpTester oob("MaxUnpool", 11);
  oob.input(DType::F32, {1, 1, 1, 1}).input(DType::I64, {1, 1, 1, 1});
  oob.attr("kernel_shape", Ints{2, 2});
  REQUIRE(oob.run(false).isOk());
  runtime::SessionOptions so;
  so.threads = 1;
  auto session = runtime::Session::fromGraph(std::move(oob.graph()), so);
  REQUIRE(session.isOk());
  const std::vector<float> one = {1.f};
  const Ints far = {4};
  REQUIRE((*session)->setInput(0, one.data(), 4).isOk());
  REQUIRE((*session)->setInput(1, far.data(), 8).isOk());
  CHECK(mentions((*session)->run(), "outside"));
}
