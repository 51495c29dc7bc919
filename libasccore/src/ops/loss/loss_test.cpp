// loss_test.cpp: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss against a naive reference
// of the ONNX definition (weights, ignore_index, each reduction, [N, C, d] inputs), and their
// shape checks.
#include <catch2/catch.hpp>

#include <cmath>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

namespace {

// x [N, C, D], t [N, D]; returns per-element losses and the weight sum.
std::vector<double> naiveNll(const std::vector<double>& x, const Ints& t, int64_t N, int64_t C,
                             int64_t D, const std::vector<float>* w, const int64_t* ignore,
                             double* wsum) {
  std::vector<double> l(N * D, 0);
  *wsum = 0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t d = 0; d < D; ++d) {
      const int64_t c = t[n * D + d];
      if (ignore && c == *ignore) continue;
      const double wc = w ? (*w)[c] : 1.0;
      l[n * D + d] = -wc * x[(n * C + c) * D + d];
      *wsum += wc;
    }
  return l;
}

std::vector<double> logSoftmax(const std::vector<float>& x, int64_t N, int64_t C, int64_t D) {
  std::vector<double> r(x.size());
  for (int64_t n = 0; n < N; ++n)
    for (int64_t d = 0; d < D; ++d) {
      double s = 0;
      for (int64_t c = 0; c < C; ++c) s += std::exp(double(x[(n * C + c) * D + d]));
      for (int64_t c = 0; c < C; ++c)
        r[(n * C + c) * D + d] = double(x[(n * C + c) * D + d]) - std::log(s);
    }
  return r;
}

}  // namespace

TEST_CASE("NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss match the definition",
          "[ops][loss]") {
  const int64_t N = 2, C = 3, D = 2;
  std::vector<float> x(N * C * D);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.3f * static_cast<float>(i % 5) - 0.7f;
  const Ints t = {0, 2, 1, 1};
  const std::vector<float> w = {0.5f, 2.f, 1.f};
  const int64_t ignore = 1;
  for (const char* op : {"NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"}) {
    const bool sce = std::string(op) == "SoftmaxCrossEntropyLoss";
    const std::vector<double> in =
        sce ? logSoftmax(x, N, C, D) : std::vector<double>(x.begin(), x.end());
    for (const char* red : {"none", "sum", "mean"}) {
      for (int variant = 0; variant < 3; ++variant) {  // plain, weights, weights + ignore_index
        INFO(op << " " << red << " variant " << variant);
        const bool weighted = variant >= 1, ignoring = variant == 2;
        OpTester k(op);
        k.input(DType::F32, {N, C, D}).input(DType::I64, {N, D});
        if (weighted) k.input(DType::F32, {C});
        k.attr("reduction", std::string(red));
        if (ignoring) k.attr("ignore_index", ignore);
        std::vector<std::vector<uint8_t>> args = {bytesOf(x), bytesOf(t)};
        if (weighted) args.push_back(bytesOf(w));
        auto got = runKernel<float>(k, args);
        double wsum = 0;
        auto l =
            naiveNll(in, t, N, C, D, weighted ? &w : nullptr, ignoring ? &ignore : nullptr, &wsum);
        double sum = 0;
        for (double v : l) sum += v;
        if (std::string(red) == "none") {
          REQUIRE(got.size() == l.size());
          for (size_t i = 0; i < l.size(); ++i) CHECK(got[i] == Approx(l[i]).epsilon(1e-5));
        } else {
          REQUIRE(got.size() == 1);
          CHECK(got[0] == Approx(std::string(red) == "sum" ? sum : sum / wsum).epsilon(1e-5));
        }
      }
    }
  }
}

TEST_CASE("SoftmaxCrossEntropyLoss log_prob output; loss shape checks", "[ops][loss]") {
  const std::vector<float> x = {1, 2, 3, 0, 0, 0};  // [2, 3]
  OpTester t("SoftmaxCrossEntropyLoss");
  t.input(DType::F32, {2, 3}).input(DType::I32, {2}).outputs(2);
  auto lp = runKernel<float>(t, {bytesOf(x), bytesOf(std::vector<int32_t>{2, 0})}, 1);
  const auto want = logSoftmax(x, 2, 3, 1);
  REQUIRE(lp.size() == 6);
  for (size_t i = 0; i < 6; ++i) CHECK(lp[i] == Approx(want[i]).epsilon(1e-6));
  OpTester shape("NegativeLogLikelihoodLoss");
  shape.input(DType::F32, {2, 3, 4})
      .input(DType::I64, {2, 4})
      .attr("reduction", std::string("none"));
  REQUIRE(shape.run().isOk());
  CHECK(shape.out().shape == ir::Shape{2, 4});
  OpTester mean("NegativeLogLikelihoodLoss");
  mean.input(DType::F32, {2, 3}).input(DType::I64, {2});
  REQUIRE(mean.run().isOk());
  CHECK(mean.out().shape == ir::Shape{});
  OpTester bad("NegativeLogLikelihoodLoss");
  bad.input(DType::F32, {2, 3, 4}).input(DType::I64, {2, 3});
  CHECK(mentions(bad.run(), "target"));
  OpTester bw("SoftmaxCrossEntropyLoss");
  bw.input(DType::F32, {2, 3}).input(DType::I64, {2}).input(DType::F32, {2});
  CHECK(mentions(bw.run(), "weight"));
  OpTester br("SoftmaxCrossEntropyLoss");
  br.input(DType::F32, {2, 3}).input(DType::I64, {2}).attr("reduction", std::string("avg"));
  CHECK(mentions(br.run(), "reduction"));
}
