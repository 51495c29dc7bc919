// concat_readers_test.cpp: a channels-last Concat read only by a 1x1 Conv or a MaxPool: the
// reader computes from the Concat's inputs (ops::createConcatConv, ops::createConcatMaxPool) and
// the Concat's copy is left out of runs nobody observes. The results must equal a naive
// reference, the plan must say which reader took the inputs (on a CPU whose blocked layout is
// channels-last; elsewhere the Concat is joined in place and nothing is left out), and readers
// the rule does not serve keep the copy: a strided Conv, a Concat read twice.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "asc/ops/kernel.h"
#include "asc/runtime/session.h"
#include "buffer_sharing.h"

using namespace asc;

namespace {

constexpr int H = 6, W = 7, HW = H * W;

using test::expectNear;
using test::pattern;

struct Graph {
  ir::Graph g;
  Graph() { g.opset = 13; }
  ir::Value* value(const std::string& name, ir::Shape shape) {
    ir::Value* v = g.addValue(name);
    v->dtype = ir::DType::F32;
    v->shape = std::move(shape);
    return v;
  }
  ir::Value* constant(const std::string& name, const std::vector<float>& d, ir::Shape shape) {
    return g.addConstant(name, ir::Tensor{ir::DType::F32, std::move(shape),
                                          ir::Blob::copyOf(d.data(), d.size() * sizeof(float))});
  }
  // A 1x1 Conv of x ([1, in, h, w]) to `out` channels with weights w and (if given) bias b.
  ir::Value* conv(const std::string& name, ir::Value* x, int out, const std::vector<float>& w,
                  const std::vector<float>* b = nullptr, int64_t stride = 1) {
    const ir::Shape& s = x->shape;
    std::vector<ir::Value*> ins = {x, constant(name + "_w", w, {out, s[1], 1, 1})};
    if (b) ins.push_back(constant(name + "_b", *b, {out}));
    ir::Value* y = value(name + "_y", {1, out, (s[2] - 1) / stride + 1, (s[3] - 1) / stride + 1});
    ir::Node* n = g.addNode("Conv", name, std::move(ins), {y});
    n->attrs.set("kernel_shape", std::vector<int64_t>{1, 1});
    n->attrs.set("strides", std::vector<int64_t>{stride, stride});
    return y;
  }
  ir::Value* concat(const std::string& name, std::vector<ir::Value*> ins) {
    ir::Shape s = ins[0]->shape;
    s[1] = 0;
    for (auto* v : ins) s[1] += v->shape[1];
    ir::Value* y = value(name + "_y", s);
    g.addNode("Concat", name, std::move(ins), {y})->attrs.set("axis", int64_t{1});
    return y;
  }
};

// Naive references on [c, hw] planes.
std::vector<float> conv(const std::vector<float>& x, int in, const std::vector<float>& w, int out,
                        const std::vector<float>* b = nullptr) {
  std::vector<float> y(size_t(out) * HW);
  for (int o = 0; o < out; ++o)
    for (int p = 0; p < HW; ++p) {
      double acc = b ? (*b)[size_t(o)] : 0.0;
      for (int i = 0; i < in; ++i) acc += double(w[size_t(o) * in + i]) * x[size_t(i) * HW + p];
      y[size_t(o) * HW + p] = float(acc);
    }
  return y;
}
std::vector<float> join(std::vector<float> a, const std::vector<float>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
// MaxPool 3x3, stride 2, pads 1 of [c, H, W] planes: 3 x 4 outputs.
std::vector<float> pool(const std::vector<float>& x, int c) {
  const int oh = 3, ow = 4;
  std::vector<float> y(size_t(c) * oh * ow, -std::numeric_limits<float>::infinity());
  for (int ch = 0; ch < c; ++ch)
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j)
        for (int r = i * 2 - 1; r <= i * 2 + 1; ++r)
          for (int q = j * 2 - 1; q <= j * 2 + 1; ++q)
            if (r >= 0 && r < H && q >= 0 && q < W) {
              float& o = y[(size_t(ch) * oh + i) * ow + j];
              o = std::max(o, x[(size_t(ch) * H + r) * W + q]);
            }
  return y;
}

struct Ran {
  std::vector<std::vector<float>> outs;
  std::string plan;
};
Ran run(Graph& m, const std::vector<float>& x) {
  auto s = runtime::Session::fromGraph(std::move(m.g));
  REQUIRE(s.isOk());
  REQUIRE((*s)->setInput(0, x.data(), x.size() * 4).isOk());
  Ran r;
  r.plan = (*s)->describe();
  for (int rep = 0; rep < 2; ++rep) {  // a second run must give the same
    REQUIRE((*s)->run().isOk());
    r.outs.clear();
    for (size_t i = 0; i < (*s)->outputs().size(); ++i) {
      const float* p = static_cast<const float*>((*s)->outputData(i));
      r.outs.emplace_back(p, p + (*s)->outputs()[i].bytes / 4);
    }
  }
  return r;
}

bool leftOut(const std::string& plan, const std::string& concat, const std::string& reader) {
  return plan.find(concat + " (ConcatD) concat (left out of unobserved runs: its " + reader +
                   " reads its inputs)") != std::string::npos;
}

}  // namespace

TEST_CASE("concat readers: a 1x1 Conv and a MaxPool read the Concat's inputs",
          "[runtime][concat]") {
  const int C = 5, A = 13, B = 20, O = 9;  // channel counts off the vector width
  const auto xv = pattern(size_t(C) * HW, 0.21f);
  const auto wa = pattern(size_t(A) * C, 0.37f), wb = pattern(size_t(B) * C, 0.53f);
  const auto wo = pattern(size_t(O) * (A + B), 0.71f), bo = pattern(O, 0.13f);
  Graph m;
  ir::Value* x = m.value("x", {1, C, H, W});
  m.g.inputs = {x};
  ir::Value* a = m.conv("a", x, A, wa);
  ir::Value* b = m.conv("b", x, B, wb);
  ir::Value* cat1 = m.concat("cat1", {a, b});
  ir::Value* y = m.conv("y", cat1, O, wo, &bo);
  ir::Value* cat2 = m.concat("cat2", {a, b});
  ir::Value* p = m.value("p", {1, A + B, 3, 4});
  ir::Node* pn = m.g.addNode("MaxPool", "pool", {cat2}, {p});
  pn->attrs.set("kernel_shape", std::vector<int64_t>{3, 3});
  pn->attrs.set("strides", std::vector<int64_t>{2, 2});
  pn->attrs.set("pads", std::vector<int64_t>{1, 1, 1, 1});
  m.g.outputs = {y, p};
  auto r = run(m, xv);
  const auto joined = join(conv(xv, C, wa, A), conv(xv, C, wb, B));
  expectNear(r.outs[0], conv(joined, A + B, wo, O, &bo));
  expectNear(r.outs[1], pool(joined, A + B));
  if (ops::channelsLast()) {
    CHECK(leftOut(r.plan, "cat1", "Conv"));
    CHECK(leftOut(r.plan, "cat2", "MaxPool"));
    CHECK(r.plan.find("2x ") != std::string::npos);
  } else {
    CHECK(r.plan.find("left out") == std::string::npos);
  }
}

TEST_CASE("concat readers: a strided Conv and a Concat read twice keep the copy",
          "[runtime][concat]") {
  const int C = 4, A = 6, O = 3;
  const auto xv = pattern(size_t(C) * HW, 0.31f);
  const auto wa = pattern(size_t(A) * C, 0.41f), wo = pattern(size_t(O) * 2 * A, 0.61f);
  Graph m;
  ir::Value* x = m.value("x", {1, C, H, W});
  m.g.inputs = {x};
  ir::Value* a = m.conv("a", x, A, wa);
  ir::Value* b = m.conv("b", x, A, wa);
  ir::Value* cat = m.concat("cat", {a, b});
  ir::Value* strided = m.conv("s", cat, O, wo, nullptr, 2);
  ir::Value* twice = m.concat("twice", {a, b});
  ir::Value* u = m.conv("u", twice, O, wo);
  m.g.outputs = {strided, u, twice};  // `twice` read by u and as a model output
  auto r = run(m, xv);
  const auto joined = join(conv(xv, C, wa, A), conv(xv, C, wa, A));
  const auto full = conv(joined, 2 * A, wo, O);
  std::vector<float> sub;  // every second row and column: 3 x 4
  for (int o = 0; o < O; ++o)
    for (int i = 0; i < H; i += 2)
      for (int j = 0; j < W; j += 2) sub.push_back(full[(size_t(o) * H + i) * W + j]);
  expectNear(r.outs[0], sub);
  expectNear(r.outs[1], full);
  expectNear(r.outs[2], joined);
  CHECK(r.plan.find("left out") == std::string::npos);
}
