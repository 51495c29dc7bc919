// winograd_test.cpp: 3x3 stride-1 convolutions with >= 64 channels run on oneDNN's Winograd
// kernel on AVX-512 (nChw16c inside, reordered in and out of the channels-last tensors). The
// results must match a naive convolution (with bias and a fused Relu) as closely as the direct
// kernel does; strided, small or batched ones keep the direct kernel.
#include <catch2/catch.hpp>

#include <cmath>

#include "asc/ops/kernel.h"
#include "asc/runtime/session.h"

using namespace asc;

namespace {

struct Case {
  int n, cin, cout, hw, stride;
};

ir::Graph build(const Case& c, const std::vector<float>& w, const std::vector<float>& b) {
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = g.addValue("x");
  x->dtype = ir::DType::F32;
  x->shape = {c.n, c.cin, c.hw, c.hw};
  g.inputs.push_back(x);
  ir::Value* wv = g.addConstant(
      "w",
      ir::Tensor{ir::DType::F32, {c.cout, c.cin, 3, 3}, ir::Blob::copyOf(w.data(), w.size() * 4)});
  ir::Value* bv = g.addConstant(
      "b", ir::Tensor{ir::DType::F32, {c.cout}, ir::Blob::copyOf(b.data(), b.size() * 4)});
  const int64_t out_hw = (c.hw + 2 - 3) / c.stride + 1;
  ir::Value* y = g.addValue("y");
  y->dtype = ir::DType::F32;
  y->shape = {c.n, c.cout, out_hw, out_hw};
  ir::Node* conv = g.addNode("Conv", "conv", {x, wv, bv}, {y});
  conv->attrs.set("kernel_shape", std::vector<int64_t>{3, 3});
  conv->attrs.set("pads", std::vector<int64_t>{1, 1, 1, 1});
  conv->attrs.set("strides", std::vector<int64_t>{c.stride, c.stride});
  conv->attrs.set("activation", std::string("Relu"));
  g.outputs.push_back(y);
  return g;
}

std::vector<float> naive(const Case& c, const std::vector<float>& x, const std::vector<float>& w,
                         const std::vector<float>& b) {
  const int oh = (c.hw + 2 - 3) / c.stride + 1;
  std::vector<float> y(size_t(c.n) * c.cout * oh * oh);
  for (int n = 0; n < c.n; ++n)
    for (int o = 0; o < c.cout; ++o)
      for (int i = 0; i < oh; ++i)
        for (int j = 0; j < oh; ++j) {
          double acc = b[o];
          for (int ci = 0; ci < c.cin; ++ci)
            for (int ki = 0; ki < 3; ++ki)
              for (int kj = 0; kj < 3; ++kj) {
                const int ii = i * c.stride + ki - 1, jj = j * c.stride + kj - 1;
                if (ii < 0 || jj < 0 || ii >= c.hw || jj >= c.hw) continue;
                acc += double(x[((size_t(n) * c.cin + ci) * c.hw + ii) * c.hw + jj]) *
                       w[((size_t(o) * c.cin + ci) * 3 + ki) * 3 + kj];
              }
          y[((size_t(n) * c.cout + o) * oh + i) * oh + j] = float(std::max(0.0, acc));
        }
  return y;
}

}  // namespace

TEST_CASE("3x3 convolutions on the Winograd kernel match a naive convolution",
          "[runtime][winograd]") {
  const Case c = GENERATE(Case{1, 64, 64, 14, 1}, Case{1, 64, 128, 12, 1}, Case{1, 64, 128, 9, 1},
                          Case{1, 64, 64, 14, 2}, Case{1, 32, 32, 14, 1}, Case{2, 64, 64, 8, 1});
  INFO("n " << c.n << " cin " << c.cin << " cout " << c.cout << " hw " << c.hw << " stride "
            << c.stride);
  std::vector<float> w(size_t(c.cout) * c.cin * 9), b(size_t(c.cout)),
      x(size_t(c.n) * c.cin * c.hw * c.hw);
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.05f * std::sin(0.7f * float(i));
  for (size_t i = 0; i < b.size(); ++i) b[i] = 0.1f * std::cos(float(i));
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.31f * float(i) + 1.f);
  auto s = runtime::Session::fromGraph(build(c, w, b));
  REQUIRE(s.isOk());
  // (a 9x9 output is too small for Winograd to pay)
  const bool wino_expected =
      ops::channelsLast() && c.stride == 1 && c.cin >= 64 && c.n == 1 && c.hw * c.hw >= 100;
  const bool wino = (*s)->describe().find("wino") != std::string::npos;
  CHECK(wino == wino_expected);
  REQUIRE((*s)->setInput(0, x.data(), x.size() * 4).isOk());
  REQUIRE((*s)->run().isOk());
  const auto want = naive(c, x, w, b);
  const float* got = static_cast<const float*>((*s)->outputData(0));
  double worst = 0, largest = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    worst = std::max(worst, double(std::fabs(got[i] - want[i])));
    largest = std::max(largest, double(std::fabs(want[i])));
  }
  INFO("kernel: " << (wino ? "winograd" : "direct") << ", max |diff| " << worst << ", max |ref| "
                  << largest);
  CHECK(largest > 0.1);
  CHECK(worst <= 2e-5 * largest);
}
