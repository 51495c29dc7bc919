// workspace_test.cpp: a strided 1x1 Conv without padding convolves a dense copy of the positions
// it reads (a kernel temporary, where oneDNN's 1x1 kernel kept a copy per thread in its
// scratchpad), and kernels' workspaces placed in bytes of the arena that no live buffer holds
// leave every live value intact: a chain whose first value stays a graph output until the end
// must equal a naive evaluation, on every run.
#include <catch2/catch.hpp>

#include <cmath>

#include "asc/runtime/session.h"

using namespace asc;

namespace {

ir::Value* value(ir::Graph& g, const std::string& name, ir::Shape s) {
  ir::Value* v = g.addValue(name);
  v->dtype = ir::DType::F32;
  v->shape = std::move(s);
  return v;
}

// y[n][o][i][j] = act(b[o] + sum over c, a, e of x[n][c][i*s + a - p][j*s + e - p] w[o][c][a][e])
std::vector<float> conv(const std::vector<float>& x, int64_t c, int64_t h,
                        const std::vector<float>& w, int64_t k, int64_t r, int64_t s, int64_t p,
                        bool relu) {
  const int64_t o = (h + 2 * p - r) / s + 1;
  std::vector<float> y(size_t(k * o * o));
  for (int64_t q = 0; q < k; ++q)
    for (int64_t i = 0; i < o; ++i)
      for (int64_t j = 0; j < o; ++j) {
        double acc = 0.1 * double(q % 5);
        for (int64_t ci = 0; ci < c; ++ci)
          for (int64_t a = 0; a < r; ++a)
            for (int64_t e = 0; e < r; ++e) {
              const int64_t ii = i * s + a - p, jj = j * s + e - p;
              if (ii < 0 || jj < 0 || ii >= h || jj >= h) continue;
              acc += double(x[size_t((ci * h + ii) * h + jj)]) *
                     w[size_t(((q * c + ci) * r + a) * r + e)];
            }
        y[size_t((q * o + i) * o + j)] = float(relu ? std::max(0.0, acc) : acc);
      }
  return y;
}

}  // namespace

TEST_CASE("strided 1x1 convolutions and kernel workspaces in the arena keep values intact",
          "[runtime][workspace]") {
  const int64_t h = GENERATE(15, 28);
  const int64_t c = 16, k = 32, o = (h - 1) / 2 + 1;
  ir::Graph g;
  g.opset = 13;
  auto weights = [&](const std::string& name, int64_t out, int64_t in, int64_t r, float f) {
    std::vector<float> w(size_t(out * in * r * r));
    for (size_t i = 0; i < w.size(); ++i) w[i] = 0.05f * std::sin(f * float(i) + 0.3f);
    return w;
  };
  auto bias = [&](int64_t out) {
    std::vector<float> b(static_cast<size_t>(out));
    for (int64_t i = 0; i < out; ++i) b[size_t(i)] = 0.1f * float(i % 5);
    return b;
  };
  auto addConv = [&](const std::string& name, ir::Value* in, const std::vector<float>& w,
                     int64_t out, int64_t in_c, int64_t r, int64_t s, int64_t p, ir::Shape ys) {
    ir::Value* wv = g.addConstant(
        name + "_w",
        ir::Tensor{ir::DType::F32, {out, in_c, r, r}, ir::Blob::copyOf(w.data(), w.size() * 4)});
    const auto b = bias(out);
    ir::Value* bv = g.addConstant(
        name + "_b", ir::Tensor{ir::DType::F32, {out}, ir::Blob::copyOf(b.data(), b.size() * 4)});
    ir::Value* y = value(g, name + "_y", std::move(ys));
    ir::Node* n = g.addNode("Conv", name, {in, wv, bv}, {y});
    n->attrs.set("kernel_shape", std::vector<int64_t>{r, r});
    n->attrs.set("strides", std::vector<int64_t>{s, s});
    n->attrs.set("pads", std::vector<int64_t>{p, p, p, p});
    n->attrs.set("activation", std::string("Relu"));
    return y;
  };
  const auto wa = weights("a", c, c, 3, 0.7f), wb = weights("b", k, c, 1, 1.3f),
             wc = weights("c", k, k, 3, 0.9f);
  ir::Value* x = value(g, "x", {1, c, h, h});
  g.inputs.push_back(x);
  ir::Value* a = addConv("a", x, wa, c, c, 3, 1, 1, {1, c, h, h});
  ir::Value* b = addConv("b", a, wb, k, c, 1, 2, 0, {1, k, o, o});
  ir::Value* y = addConv("c", b, wc, k, k, 3, 1, 1, {1, k, o, o});
  g.outputs = {y, a};  // a stays live to the end: no workspace may take its bytes
  std::vector<float> xv(size_t(c * h * h));
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = std::sin(0.37f * float(i));
  const auto av = conv(xv, c, h, wa, c, 3, 1, 1, true);
  const auto bv = conv(av, c, h, wb, k, 1, 2, 0, true);
  const auto yv = conv(bv, k, o, wc, k, 3, 1, 1, true);
  auto s = runtime::Session::fromGraph(std::move(g));
  REQUIRE(s.isOk());
  REQUIRE((*s)->setInput(0, xv.data(), xv.size() * 4).isOk());
  for (int run = 0; run < 2; ++run) {
    REQUIRE((*s)->run().isOk());
    for (size_t out = 0; out < 2; ++out) {
      const std::vector<float>& want = out == 0 ? yv : av;
      REQUIRE((*s)->outputs()[out].bytes == want.size() * 4);
      const float* got = static_cast<const float*>((*s)->outputData(out));
      double worst = 0;
      for (size_t i = 0; i < want.size(); ++i)
        worst = std::max(worst, double(std::fabs(got[i] - want[i])));
      INFO("h " << h << " run " << run << " output " << out << " max |diff| " << worst);
      CHECK(worst <= 2e-5);
    }
  }
}
