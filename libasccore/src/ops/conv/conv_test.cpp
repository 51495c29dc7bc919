// conv_test.cpp: Conv and ConvTranspose with weights and bias given at run time (graph inputs,
// reordered on every run), ConvInteger and QLinearConv against a naive reference; shapes are
// covered in tests/unit/ops/conv_unary_test.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

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

TEST_CASE("QLinearConv: per-channel weights, bias, groups, requantization", "[ops][conv]") {
  // x [1, 4, 5, 5] int8, w [2, 2, 3, 3] uint8 (2 groups), stride 2, pads 1.
  const int64_t C = 4, H = 5, W = 5, O = 2, Cg = 2, K = 3, OH = 3, OW = 3;
  std::vector<int8_t> x(C * H * W);
  std::vector<uint8_t> w(O * Cg * K * K);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int8_t>((i * 37) % 200 - 100);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<uint8_t>((i * 11) % 17 + 120);
  const float x_scale = 0.05f, y_scale = 0.7f;
  const std::vector<float> w_scale = {0.02f, 0.03f};
  const int8_t xzp = 3, yzp = -5;
  const std::vector<uint8_t> wzp = {128, 125};
  const std::vector<int32_t> bias = {100, -250};
  std::vector<int8_t> want;
  for (int64_t o = 0; o < O; ++o)
    for (int64_t i = 0; i < OH; ++i)
      for (int64_t j = 0; j < OW; ++j) {
        int64_t acc = bias[o];
        for (int64_t c = 0; c < Cg; ++c)
          for (int64_t ki = 0; ki < K; ++ki)
            for (int64_t kj = 0; kj < K; ++kj) {
              const int64_t r = 2 * i - 1 + ki, q = 2 * j - 1 + kj;
              if (r < 0 || r >= H || q < 0 || q >= W) continue;
              acc += (x[((o * Cg + c) * H + r) * W + q] - xzp) *
                     (w[((o * Cg + c) * K + ki) * K + kj] - wzp[o]);
            }
        const double v = std::nearbyint(acc * (x_scale * w_scale[o] / y_scale)) + yzp;
        want.push_back(static_cast<int8_t>(std::clamp(v, -128.0, 127.0)));
      }
  OpTester t("QLinearConv", 10);
  t.input(DType::I8, {1, C, H, W}).input(DType::F32, {}).input(DType::I8, {});
  t.input(DType::U8, {O, Cg, K, K}).input(DType::F32, {O}).input(DType::U8, {O});
  t.input(DType::F32, {}).input(DType::I8, {}).input(DType::I32, {O});
  t.attr("pads", Ints{1, 1, 1, 1}).attr("strides", Ints{2, 2}).attr("group", int64_t{2});
  auto f = [](float v) { return bytesOf(std::vector<float>{v}); };
  auto i8 = [](int8_t v) { return bytesOf(std::vector<int8_t>{v}); };
  const auto got =
      runKernel<int8_t>(t, {bytesOf(x), f(x_scale), i8(xzp), bytesOf(w), bytesOf(w_scale),
                            bytesOf(wzp), f(y_scale), i8(yzp), bytesOf(bias)});
  REQUIRE(got.size() == want.size());
  int saturated = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(got[i] == want[i]);
    saturated += want[i] == -128 || want[i] == 127;
  }
  CHECK(saturated < static_cast<int>(want.size()));  // the data exercise more than the clamp
  OpTester b("QLinearConv", 10);
  b.input(DType::U8, {1, 1, 3, 3}).input(DType::F32, {}).input(DType::U8, {});
  b.input(DType::U8, {2, 1, 1, 1}).input(DType::F32, {3}).input(DType::U8, {});
  b.input(DType::F32, {}).input(DType::U8, {});
  CHECK(asc::test::mentions(b.run(), "input 4 holds 3 values"));
}

TEST_CASE("ConvInteger and QLinearConv with 1 and 3 spatial dims", "[ops][conv]") {
  // A naive reference over one spatial walk: the map is [D, H, W] with leading 1s for 1-D.
  struct Case {
    Ints x, w, strides, pads, dil;
  };
  const Case cases[] = {
      {{2, 3, 11}, {4, 3, 3}, {2}, {1, 2}, {1}},
      {{1, 2, 5, 4, 6}, {3, 2, 2, 3, 2}, {1, 2, 2}, {1, 0, 1, 0, 1, 1}, {2, 1, 1}},
  };
  for (const Case& c : cases) {
    INFO("x [" << ir::shapeToString(c.x) << "]");
    const size_t sp = c.x.size() - 2, off = 3 - sp;
    int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, st[3] = {1, 1, 1}, pb[3] = {0, 0, 0},
            dl[3] = {1, 1, 1}, out[3] = {1, 1, 1};
    for (size_t d = 0; d < sp; ++d) {
      in[off + d] = c.x[2 + d];
      k[off + d] = c.w[2 + d];
      st[off + d] = c.strides[d];
      pb[off + d] = c.pads[d];
      dl[off + d] = c.dil[d];
      const int64_t ek = (k[off + d] - 1) * dl[off + d] + 1;
      out[off + d] = (in[off + d] + c.pads[d] + c.pads[d + sp] - ek) / st[off + d] + 1;
    }
    const int64_t N = c.x[0], C = c.x[1], O = c.w[0];
    std::vector<uint8_t> x(ir::numElements(c.x));
    std::vector<int8_t> w(ir::numElements(c.w));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint8_t>((i * 41) % 256);
    for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>((i * 7) % 31 - 15);
    const uint8_t xzp = 128;
    const int8_t wzp = 2;
    std::vector<int32_t> want;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t o = 0; o < O; ++o)
        for (int64_t p = 0; p < out[0]; ++p)
          for (int64_t i = 0; i < out[1]; ++i)
            for (int64_t j = 0; j < out[2]; ++j) {
              int64_t acc = 0;
              for (int64_t ch = 0; ch < C; ++ch)
                for (int64_t a = 0; a < k[0]; ++a)
                  for (int64_t b = 0; b < k[1]; ++b)
                    for (int64_t e = 0; e < k[2]; ++e) {
                      const int64_t z = p * st[0] - pb[0] + a * dl[0];
                      const int64_t r = i * st[1] - pb[1] + b * dl[1];
                      const int64_t q = j * st[2] - pb[2] + e * dl[2];
                      if (z < 0 || z >= in[0] || r < 0 || r >= in[1] || q < 0 || q >= in[2])
                        continue;
                      acc += (x[(((n * C + ch) * in[0] + z) * in[1] + r) * in[2] + q] - xzp) *
                             (w[(((o * C + ch) * k[0] + a) * k[1] + b) * k[2] + e] - wzp);
                    }
              want.push_back(static_cast<int32_t>(acc));
            }
    OpTester t("ConvInteger", 10);
    t.input(DType::U8, c.x).input(DType::I8, c.w).input(DType::U8, {}).input(DType::I8, {});
    t.attr("strides", c.strides).attr("pads", c.pads).attr("dilations", c.dil);
    CHECK(runKernel<int32_t>(t, {bytesOf(x), bytesOf(w), bytesOf(std::vector<uint8_t>{xzp}),
                                 bytesOf(std::vector<int8_t>{wzp})}) == want);
    // QLinearConv on the same data: the sums requantized (scale 1/64, y_zero_point 100).
    OpTester q("QLinearConv", 10);
    q.input(DType::U8, c.x).input(DType::F32, {}).input(DType::U8, {});
    q.input(DType::I8, c.w).input(DType::F32, {}).input(DType::I8, {});
    q.input(DType::F32, {}).input(DType::U8, {});
    q.attr("strides", c.strides).attr("pads", c.pads).attr("dilations", c.dil);
    auto f = [](float v) { return bytesOf(std::vector<float>{v}); };
    const auto got = runKernel<uint8_t>(
        q, {bytesOf(x), f(0.125f), bytesOf(std::vector<uint8_t>{xzp}), bytesOf(w), f(0.5f),
            bytesOf(std::vector<int8_t>{wzp}), f(4.f), bytesOf(std::vector<uint8_t>{100})});
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      const float v = std::nearbyint(static_cast<float>(want[i]) * (0.125f * 0.5f / 4.f)) + 100.f;
      CHECK(got[i] == static_cast<uint8_t>(std::clamp(v, 0.f, 255.f)));
    }
  }
}
