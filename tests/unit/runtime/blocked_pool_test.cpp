// blocked_pool_test.cpp: MaxPool over blocked (nChw8c) tensors, the layout a Conv writes on
// AVX2 CPUs, runs the runtime's own direct kernel (oneDNN 2.6's was 3-10x slower there). A Conv
// with identity weights makes the blocked input without changing a value, and the pool must equal
// a naive max pooling for strides, pads, ceil_mode, a channel count off the block and N > 1.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "asc/ops/kernel.h"
#include "asc/runtime/session.h"

using namespace asc;

namespace {

struct Case {
  int64_t n, c, h, w;
  std::vector<int64_t> kernel, strides, pads;
  int64_t ceil_mode;
};

int64_t outSize(int64_t in, int64_t k, int64_t s, int64_t pl, int64_t pr, bool ceil_mode) {
  const int64_t span = in + pl + pr - k;
  return (ceil_mode ? (span + s - 1) / s : span / s) + 1;
}

// Naive max pooling of x [N, C, H, W]; padding never wins.
std::vector<float> reference(const std::vector<float>& x, const Case& c, int64_t oh, int64_t ow) {
  std::vector<float> y;
  for (int64_t p = 0; p < c.n * c.c; ++p)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        float best = -std::numeric_limits<float>::infinity();
        for (int64_t a = 0; a < c.kernel[0]; ++a)
          for (int64_t b = 0; b < c.kernel[1]; ++b) {
            const int64_t hh = i * c.strides[0] - c.pads[0] + a,
                          ww = j * c.strides[1] - c.pads[1] + b;
            if (hh < 0 || hh >= c.h || ww < 0 || ww >= c.w) continue;
            best = std::max(best, x[(p * c.h + hh) * c.w + ww]);
          }
        y.push_back(best);
      }
  return y;
}

}  // namespace

TEST_CASE("MaxPool of blocked tensors matches a naive pooling", "[runtime][pool]") {
  const Case cases[] = {
      {1, 16, 9, 9, {3, 3}, {1, 1}, {1, 1, 1, 1}, 0},    // GoogLeNet's branch pool
      {1, 12, 11, 11, {3, 3}, {2, 2}, {0, 0, 0, 0}, 1},  // ceil_mode, 12 channels: a padded block
      {2, 8, 8, 6, {2, 2}, {2, 2}, {0, 0, 0, 0}, 0},
      {1, 24, 7, 10, {3, 2}, {2, 1}, {1, 0, 1, 1}, 0},  // unequal kernel, strides and pads
      {1, 8, 5, 5, {5, 5}, {1, 1}, {2, 2, 2, 2}, 0},
  };
  for (const Case& c : cases) {
    INFO("x [" << c.n << "," << c.c << "," << c.h << "," << c.w << "] k " << c.kernel[0] << "x"
               << c.kernel[1] << " s " << c.strides[0] << "," << c.strides[1]);
    const int64_t oh = outSize(c.h, c.kernel[0], c.strides[0], c.pads[0], c.pads[2], c.ceil_mode);
    const int64_t ow = outSize(c.w, c.kernel[1], c.strides[1], c.pads[1], c.pads[3], c.ceil_mode);
    ir::Graph g;
    g.opset = 13;
    auto value = [&](const std::string& name, ir::Shape s) {
      ir::Value* v = g.addValue(name);
      v->dtype = ir::DType::F32;
      v->shape = std::move(s);
      return v;
    };
    std::vector<float> eye(size_t(c.c * c.c), 0.f);
    for (int64_t i = 0; i < c.c; ++i) eye[size_t(i * c.c + i)] = 1.f;
    ir::Value* w = g.addConstant(
        "w",
        ir::Tensor{ir::DType::F32, {c.c, c.c, 1, 1}, ir::Blob::copyOf(eye.data(), eye.size() * 4)});
    ir::Value* x = value("x", {c.n, c.c, c.h, c.w});
    g.inputs.push_back(x);
    ir::Value* y = value("y", {c.n, c.c, c.h, c.w});
    g.addNode("Conv", "conv", {x, w}, {y})->attrs.set("kernel_shape", std::vector<int64_t>{1, 1});
    ir::Value* z = value("z", {c.n, c.c, oh, ow});
    ir::Node* pool = g.addNode("MaxPool", "pool", {y}, {z});
    pool->attrs.set("kernel_shape", c.kernel);
    pool->attrs.set("strides", c.strides);
    pool->attrs.set("pads", c.pads);
    pool->attrs.set("ceil_mode", c.ceil_mode);
    g.outputs = {z};
    std::vector<float> xv(size_t(c.n * c.c * c.h * c.w));
    for (size_t i = 0; i < xv.size(); ++i) xv[i] = std::sin(0.7f * float(i)) * 3.f - 0.5f;
    auto s = runtime::Session::fromGraph(std::move(g));
    REQUIRE(s.isOk());
    // On an AVX2 CPU the Conv writes nChw8c and the runtime's kernel pools it.
    if (!ops::channelsLast()) CHECK_THAT((*s)->describe(), Catch::Contains(":nChw8c"));
    REQUIRE((*s)->setInput(0, xv.data(), xv.size() * 4).isOk());
    REQUIRE((*s)->run().isOk());
    const float* out = static_cast<const float*>((*s)->outputData(0));
    const std::vector<float> got(out, out + (*s)->outputs()[0].bytes / 4);
    CHECK(got == reference(xv, c, oh, ow));
  }
}
