// conv_test.cpp: Conv and ConvTranspose with weights and bias given at run time (graph inputs,
// reordered on every run) and ConvInteger against a naive reference; shapes are covered in
// tests/unit/ops/conv_unary_test.cpp.
#include <catch2/catch.hpp>

#include "support/kernel_runner.h"

using namespace asc;
using asc::test::bytesOf;
using asc::test::OpTester;
using asc::test::runKernel;
using ir::DType;
using Ints = std::vector<int64_t>;

namespace {
std::vector<float> ramp(size_t n, float scale, float shift) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>((i * 5) % 9) + shift;
  return v;
}
}  // namespace

TEST_CASE("Conv with run-time weights and bias", "[ops][conv]") {
  const int64_t C = 2, O = 3, H = 4, W = 4, K = 3;
  const auto x = ramp(C * H * W, 0.25f, -1.f), w = ramp(O * C * K * K, -0.1f, 0.3f);
  const std::vector<float> b = {0.5f, -0.25f, 1.f};
  std::vector<double> want(O * H * W);
  for (int64_t o = 0; o < O; ++o)
    for (int64_t i = 0; i < H; ++i)
      for (int64_t j = 0; j < W; ++j) {
        double s = b[o];
        for (int64_t c = 0; c < C; ++c)
          for (int64_t ki = 0; ki < K; ++ki)
            for (int64_t kj = 0; kj < K; ++kj) {
              const int64_t r = i + ki - 1, q = j + kj - 1;  // pads 1
              if (r < 0 || r >= H || q < 0 || q >= W) continue;
              s += x[(c * H + r) * W + q] * w[((o * C + c) * K + ki) * K + kj];
            }
        want[(o * H + i) * W + j] = s;
      }
  for (int run = 0; run < 2; ++run) {  // a second session: the per-run reorder, not a cache
    OpTester t("Conv");
    t.input(DType::F32, {1, C, H, W}).input(DType::F32, {O, C, K, K}).input(DType::F32, {O});
    t.attr("pads", Ints{1, 1, 1, 1});
    auto got = runKernel<float>(t, {bytesOf(x), bytesOf(w), bytesOf(b)});
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).epsilon(1e-4));
  }
}

TEST_CASE("ConvTranspose with run-time weights", "[ops][conv]") {
  const int64_t C = 2, O = 3, H = 3, W = 3, K = 2, S = 2;
  const auto x = ramp(C * H * W, 0.3f, -0.5f), w = ramp(C * O * K * K, 0.2f, -0.4f);
  const int64_t Ho = (H - 1) * S + K, Wo = (W - 1) * S + K;
  std::vector<double> want(O * Ho * Wo, 0.0);
  for (int64_t c = 0; c < C; ++c)
    for (int64_t i = 0; i < H; ++i)
      for (int64_t j = 0; j < W; ++j)
        for (int64_t o = 0; o < O; ++o)
          for (int64_t ki = 0; ki < K; ++ki)
            for (int64_t kj = 0; kj < K; ++kj)
              want[(o * Ho + i * S + ki) * Wo + j * S + kj] +=
                  x[(c * H + i) * W + j] * w[((c * O + o) * K + ki) * K + kj];
  OpTester t("ConvTranspose");
  t.input(DType::F32, {1, C, H, W}).input(DType::F32, {C, O, K, K});
  t.attr("strides", Ints{S, S});
  auto got = runKernel<float>(t, {bytesOf(x), bytesOf(w)});
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i)
    CHECK(got[i] == Approx(want[i]).epsilon(1e-4).margin(1e-6));
}

TEST_CASE("ConvInteger: zero points, padding, int32 out", "[ops][conv]") {
  const int64_t H = 3, W = 3;
  const std::vector<uint8_t> x = {2, 3, 4, 5, 6, 7, 8, 9, 10};  // [1, 1, 3, 3]
  const std::vector<uint8_t> w = {1, 1, 1, 1};                  // [1, 1, 2, 2]
  const uint8_t xzp = 1;
  // pads 1: a 4x4 output; padded positions contribute (x_zero_point - x_zero_point) = 0.
  std::vector<int32_t> want(16, 0);
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t ki = 0; ki < 2; ++ki)
        for (int64_t kj = 0; kj < 2; ++kj) {
          const int64_t r = i - 1 + ki, q = j - 1 + kj;
          if (r >= 0 && r < H && q >= 0 && q < W) want[i * 4 + j] += x[r * W + q] - xzp;
        }
  OpTester t("ConvInteger", 10);
  t.input(DType::U8, {1, 1, H, W}).input(DType::U8, {1, 1, 2, 2}).input(DType::U8, {});
  t.attr("pads", Ints{1, 1, 1, 1});
  CHECK(runKernel<int32_t>(t, {bytesOf(x), bytesOf(w), bytesOf(std::vector<uint8_t>{xzp})}) ==
        want);
}
