// concat_inplace_test.cpp: a Concat whose output is its inputs one after another (every dim
// before the axis is 1) gets its inputs' buffers inside its own, so their producers write the
// result and the kernel copies nothing (OpDef::joinsInputs). The results must equal a naive
// reference whether an input is joined (produced by a step, in the output's layout, read once
// by the Concat, and not after the Concat's output dies) or copied (a model input, an input
// given twice, one another Concat joined first, one read after the output's last reader), also
// when a joined input is read again after the Concat or through a Reshape-like alias, and each
// test checks how many inputs were joined.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "asc/om/om_file.h"
#include "asc/ops/kernel.h"
#include "asc/runtime/session.h"
#include "buffer_sharing.h"

using namespace asc;

namespace {

constexpr int C = 16, H = 5, W = 7;
constexpr size_t N = size_t(C) * H * W;

using test::expectNear;
using test::pattern;
using test::relu;

std::vector<float> conv1x1(const std::vector<float>& x, const std::vector<float>& w) {
  return test::conv1x1(x, w, C, H * W);
}

std::vector<float> join(const std::vector<std::vector<float>>& parts) {
  std::vector<float> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

struct Builder {
  ir::Graph g;
  std::vector<float> w1 = pattern(size_t(C) * C, 0.37f), w2 = pattern(size_t(C) * C, 0.53f);
  ir::Value *wv1 = nullptr, *wv2 = nullptr;
  Builder() {
    g.opset = 13;
    for (auto* w : {&w1, &w2})
      for (auto& v : *w) v *= 0.2f;
    wv1 = g.addConstant(
        "w1", ir::Tensor{ir::DType::F32, {C, C, 1, 1}, ir::Blob::copyOf(w1.data(), w1.size() * 4)});
    wv2 = g.addConstant(
        "w2", ir::Tensor{ir::DType::F32, {C, C, 1, 1}, ir::Blob::copyOf(w2.data(), w2.size() * 4)});
  }
  ir::Value* value(const std::string& name, ir::Shape shape = {1, C, H, W}) {
    ir::Value* v = g.addValue(name);
    v->dtype = ir::DType::F32;
    v->shape = std::move(shape);
    return v;
  }
  ir::Value* input(const std::string& name) {
    ir::Value* v = value(name);
    g.inputs.push_back(v);
    return v;
  }
  ir::Value* conv(const std::string& name, ir::Value* x, ir::Value* w) {
    ir::Value* out = value(name + "_out");
    g.addNode("Conv", name, {x, w}, {out})->attrs.set("kernel_shape", std::vector<int64_t>{1, 1});
    return out;
  }
  ir::Value* unary(const std::string& type, const std::string& name, ir::Value* x) {
    ir::Value* out = value(name + "_out", x->shape);
    g.addNode(type, name, {x}, {out});
    return out;
  }
  ir::Value* concat(const std::string& name, std::vector<ir::Value*> ins, int64_t axis = 1) {
    ir::Shape s = ins[0]->shape;
    s[axis] = 0;
    for (auto* v : ins) s[axis] += v->shape[axis];
    ir::Value* out = value(name + "_out", s);
    g.addNode("Concat", name, std::move(ins), {out})->attrs.set("axis", axis);
    return out;
  }
};

// Inputs joined into a Concat's output: the arena buffers reuse saves (no other sharing
// happens in these graphs: no Conv takes a residual).
size_t joinedInputs(const std::function<void(Builder&)>& make) {
  return test::buffersSaved<Builder>(make);
}

std::vector<std::vector<float>> run(const std::function<void(Builder&)>& make,
                                    const std::vector<float>& x) {
  Builder b;
  make(b);
  auto s = runtime::Session::fromGraph(std::move(b.g));
  REQUIRE(s.isOk());
  REQUIRE((*s)->setInput(0, x.data(), x.size() * 4).isOk());
  std::vector<std::vector<float>> outs;
  for (int rep = 0; rep < 2; ++rep) {  // a second run must give the same
    REQUIRE((*s)->run().isOk());
    outs.clear();
    for (size_t i = 0; i < (*s)->outputs().size(); ++i) {
      const float* p = static_cast<const float*>((*s)->outputData(i));
      outs.emplace_back(p, p + (*s)->outputs()[i].bytes / 4);
    }
  }
  return outs;
}

// On a channels-last CPU (AVX-512) a blocked Concat interleaves its inputs per pixel: nothing
// can be joined there, and the Concat copies.
size_t blockedJoins(size_t n) { return ops::channelsLast() ? 0 : n; }

}  // namespace

TEST_CASE("concat in place: the Convs write into the Concat's output", "[runtime][concat]") {
  Builder ref;
  const auto xv = pattern(N, 0.11f);
  const auto a = conv1x1(xv, ref.w1), b = conv1x1(xv, ref.w2);
  // Two Convs (blocked outputs) joined along channels, then a third branch read after it.
  auto make = [](Builder& g) {
    ir::Value* x = g.input("x");
    ir::Value* c1 = g.conv("c1", x, g.wv1);
    ir::Value* c2 = g.conv("c2", x, g.wv2);
    ir::Value* cat = g.concat("cat", {c1, c2});
    g.g.outputs = {cat, g.unary("Relu", "r", c1)};  // c1 is read again after the Concat
  };
  CHECK(joinedInputs(make) == blockedJoins(2));
  auto out = run(make, xv);
  expectNear(out[0], join({a, b}));
  expectNear(out[1], relu(a));
}

TEST_CASE("concat in place on plain tensors, and through a Reshape-like alias",
          "[runtime][concat]") {
  const auto xv = pattern(N, 0.17f);
  auto make = [](Builder& g) {
    ir::Value* x = g.input("x");
    ir::Value* r1 = g.unary("Relu", "r1", x);
    ir::Value* r2 = g.unary("Neg", "r2", x);
    ir::Value* cat = g.concat("cat", {r1, r2, r1});  // r1 twice: copied
    ir::Value* id = g.unary("Identity", "id", r2);   // an alias of the joined r2
    g.g.outputs = {cat, id};
  };
  CHECK(joinedInputs(make) == 1);
  std::vector<float> neg(xv);
  for (auto& v : neg) v = -v;
  auto out = run(make, xv);
  expectNear(out[0], join({relu(xv), neg, relu(xv)}));
  expectNear(out[1], neg);
}

TEST_CASE("concat copies what it cannot join", "[runtime][concat]") {
  Builder ref;
  const auto xv = pattern(N, 0.29f);
  const auto a = conv1x1(xv, ref.w1), b = conv1x1(xv, ref.w2);
  // A model input is never joined (the caller writes it once for every run); a second Concat
  // of the same inputs copies them (the first one holds them).
  auto make = [](Builder& g) {
    ir::Value* x = g.input("x");
    ir::Value* c1 = g.conv("c1", x, g.wv1);
    ir::Value* c2 = g.conv("c2", x, g.wv2);
    ir::Value* cat1 = g.concat("cat1", {c1, c2});
    ir::Value* cat2 = g.concat("cat2", {c2, c1});
    ir::Value* cat3 = g.concat("cat3", {x, g.unary("Relu", "r", x)});
    g.g.outputs = {cat1, cat2, cat3};
  };
  CHECK(joinedInputs(make) == blockedJoins(2) + 1);  // c1, c2 into cat1; r into cat3
  auto out = run(make, xv);
  expectNear(out[0], join({a, b}));
  expectNear(out[1], join({b, a}));
  expectNear(out[2], join({xv, relu(xv)}));
  // Along an axis with a dim before it that is not 1 the inputs interleave: nothing is joined.
  auto make2 = [](Builder& g) {
    ir::Value* x = g.input("x");
    g.g.outputs = {g.concat("cat", {g.unary("Relu", "r", x), g.unary("Neg", "n", x)}, 2)};
  };
  CHECK(joinedInputs(make2) == 0);
  auto out2 = run(make2, xv);
  std::vector<float> want;
  for (int c = 0; c < C; ++c) {
    for (int p = 0; p < H * W; ++p) want.push_back(std::max(0.f, xv[size_t(c) * H * W + p]));
    for (int p = 0; p < H * W; ++p) want.push_back(-xv[size_t(c) * H * W + p]);
  }
  expectNear(out2[0], want);
}

TEST_CASE("concat does not join an input read after its output dies", "[runtime][concat]") {
  Builder ref;
  const auto xv = pattern(N, 0.41f);
  const auto a = conv1x1(xv, ref.w1), b = conv1x1(xv, ref.w2);
  // The Concat's output dies at d; c1 is read later (by e): joined, it would keep the whole
  // output alive to e (DenseNet's pattern). c2 dies with the Concat: joined.
  auto make = [](Builder& g) {
    ir::Value* x = g.input("x");
    ir::Value* c1 = g.conv("c1", x, g.wv1);
    ir::Value* c2 = g.conv("c2", x, g.wv2);
    ir::Value* d = g.unary("Relu", "d", g.concat("cat", {c1, c2}));
    ir::Value* e = g.unary("Neg", "e", c1);
    g.g.outputs = {d, e};
  };
  CHECK(joinedInputs(make) == blockedJoins(1));
  auto out = run(make, xv);
  expectNear(out[0], relu(join({a, b})));
  std::vector<float> neg(a);
  for (auto& v : neg) v = -v;
  expectNear(out[1], neg);
}

TEST_CASE("a Concat of a later Concat's first inputs lies inside it and copies nothing",
          "[runtime][concat]") {
  Builder ref;
  const auto xv = pattern(N, 0.23f);
  const auto a = conv1x1(xv, ref.w1), b = conv1x1(a, ref.w2), c = conv1x1(b, ref.w1);
  // DenseNet's block: each layer reads the Concat of the maps so far, and the block's last
  // Concat holds them all. x0, x1 and x2 are joined into it (they die there); the layers'
  // Concats (c1 of x0, c2 of x0 and x1) are its first bytes.
  auto make = [](Builder& g) {
    ir::Value* x = g.input("x");
    ir::Value* x0 = g.conv("x0", x, g.wv1);
    ir::Value* x1 = g.conv("x1", g.concat("c1", {x0}), g.wv2);
    ir::Value* r = g.unary("Relu", "r", g.concat("c2", {x0, x1}));
    ir::Value* x2 = g.conv("x2", x1, g.wv1);
    g.g.outputs = {g.concat("block", {x0, x1, x2}), r};
  };
  CHECK(joinedInputs(make) == blockedJoins(3 + 2));
  auto out = run(make, xv);
  expectNear(out[0], join({a, b, c}));
  expectNear(out[1], relu(join({a, b})));

  // The OM's plan follows the same rule: the layers' Concats at the block's offset, each map at
  // its place in it; and a session on the loaded model gives the same results.
  Builder b2;
  make(b2);
  const std::string path = ASC_TEST_TMP "/concat_prefix.om";
  om::ModelInfo info;
  info.soc_version = "Ascend310P3";
  REQUIRE(om::writeOm(b2.g, info, path).isOk());
  auto m = om::loadOm(path);
  REQUIRE(m.isOk());
  auto offset = [&](const char* v) {
    REQUIRE(m->graph.findValue(v));
    return m->activation_offsets.at(m->graph.findValue(v));
  };
  const uint64_t block = offset("block_out");
  CHECK(offset("c1_out") == block);
  CHECK(offset("c2_out") == block);
  CHECK(offset("x0_out") == block);
  CHECK(offset("x1_out") == block + N * 4);
  CHECK(offset("x2_out") == block + 2 * N * 4);
  auto s = runtime::Session::load(path);
  REQUIRE(s.isOk());
  REQUIRE((*s)->setInput(0, xv.data(), xv.size() * 4).isOk());
  REQUIRE((*s)->run().isOk());
  const float* f = static_cast<const float*>((*s)->outputData(0));
  expectNear(std::vector<float>(f, f + 3 * N), join({a, b, c}));

  // A layer's Concat read after the block's last reader stays a buffer of its own.
  auto late = [](Builder& g) {
    ir::Value* x = g.input("x");
    ir::Value* x0 = g.conv("x0", x, g.wv1);
    ir::Value* c1 = g.concat("c1", {x0});
    ir::Value* x1 = g.conv("x1", c1, g.wv2);
    ir::Value* d = g.unary("Relu", "d", g.concat("block", {x0, x1}));
    g.g.outputs = {d, g.unary("Neg", "e", c1)};  // c1 read after the block's output dies
  };
  CHECK(joinedInputs(late) == blockedJoins(2));
  auto out2 = run(late, xv);
  expectNear(out2[0], relu(join({a, b})));
  std::vector<float> neg(a);
  for (auto& v : neg) v = -v;
  expectNear(out2[1], neg);
}
