// inplace_test.cpp: a Conv with a fused residual writes into the residual's buffer when nothing
// needs the residual afterwards (a sum post-op in place). The results must equal a naive
// reference whether the runtime shares the buffer (the residual dies at the Conv, also along a
// chain of such Convs) or must not (the residual is read again later, or is a model input),
// and each test checks how many Convs did share their residual's buffer.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "asc/runtime/session.h"
#include "buffer_sharing.h"

using namespace asc;

namespace {

constexpr int C = 16, H = 6, W = 6;
constexpr size_t N = size_t(C) * H * W;

using test::expectNear;
using test::pattern;
using test::relu;

std::vector<float> conv1x1(const std::vector<float>& x, const std::vector<float>& w) {
  return test::conv1x1(x, w, C, H * W);
}

struct Builder {
  ir::Graph g;
  std::vector<float> w = pattern(size_t(C) * C, 0.37f);
  ir::Value* wv = nullptr;
  Builder() {
    g.opset = 13;
    for (auto& v : w) v *= 0.2f;
    wv = g.addConstant(
        "w", ir::Tensor{ir::DType::F32, {C, C, 1, 1}, ir::Blob::copyOf(w.data(), w.size() * 4)});
  }
  ir::Value* value(const std::string& name) {
    ir::Value* v = g.addValue(name);
    v->dtype = ir::DType::F32;
    v->shape = {1, C, H, W};
    return v;
  }
  ir::Value* input(const std::string& name) {
    ir::Value* v = value(name);
    g.inputs.push_back(v);
    return v;
  }
  ir::Value* op(const std::string& type, const std::string& name, std::vector<ir::Value*> ins) {
    ir::Value* out = value(name + "_out");
    ir::Node* n = g.addNode(type, name, std::move(ins), {out});
    if (type == "Conv") n->attrs.set("kernel_shape", std::vector<int64_t>{1, 1});
    return out;
  }
  // Conv(x) + residual, fused (the form fuse-conv-add produces).
  ir::Value* convAdd(const std::string& name, ir::Value* x, ir::Value* res) {
    return op("Conv", name, {x, wv, nullptr, res});
  }
};

std::vector<std::vector<float>> run(ir::Graph g, const std::vector<float>& x) {
  auto s = runtime::Session::fromGraph(std::move(g));
  REQUIRE(s.isOk());
  REQUIRE((*s)->setInput(0, x.data(), x.size() * 4).isOk());
  std::vector<std::vector<float>> outs;
  for (int rep = 0; rep < 2; ++rep) {  // a second run must see the same inputs
    REQUIRE((*s)->run().isOk());
    outs.clear();
    for (size_t i = 0; i < (*s)->outputs().size(); ++i) {
      const float* p = static_cast<const float*>((*s)->outputData(i));
      outs.emplace_back(p, p + N);
    }
  }
  return outs;
}

// Convs that write into their residual's buffer: the arena buffers reuse saves (only the in-place
// residual depends on reuse; the other aliases, Reshape-like ops, do not).
size_t sharedResiduals(const std::function<void(Builder&)>& make) {
  return test::buffersSaved<Builder>(make);
}

std::vector<float> add(std::vector<float> a, const std::vector<float>& b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] += b[i];
  return a;
}

}  // namespace

TEST_CASE("conv residual in place: the residual dies at the Conv", "[runtime][inplace]") {
  auto make = [](Builder& b) {
    ir::Value* x = b.input("x");
    ir::Value* r = b.op("Relu", "r", {x});
    ir::Value* c1 = b.convAdd("c1", x, r);    // r dies here, but see below
    ir::Value* c2 = b.convAdd("c2", c1, c1);  // c1 is both source and residual: no sharing
    ir::Value* c3 = b.convAdd("c3", x, c2);   // c2 (its own buffer) dies here
    b.g.outputs = {c3};
  };
  CHECK(sharedResiduals(make) == 1);  // c3
  // Each on its own. c1 does not share: r, a Relu of the plain model input, is not kept in the
  // blocked layout the Conv writes, so its buffer cannot take the Conv's output. c3 does: c2 is
  // a Conv output, in the Conv layout.
  CHECK(sharedResiduals([](Builder& b) {
          ir::Value* x = b.input("x");
          b.g.outputs = {b.convAdd("c1", x, b.op("Relu", "r", {x}))};
        }) == 0);
  CHECK(sharedResiduals([](Builder& b) {
          ir::Value* x = b.input("x");
          ir::Value* c1 = b.op("Conv", "c0", {x, b.wv});
          ir::Value* c2 = b.convAdd("c2", c1, c1);
          b.g.outputs = {b.convAdd("c3", x, c2)};
        }) == 1);
  Builder b;
  make(b);
  const auto xv = pattern(N, 0.11f);
  const auto rv = relu(xv);
  const auto c1v = add(conv1x1(xv, b.w), rv);
  const auto c2v = add(conv1x1(c1v, b.w), c1v);
  const auto c3v = add(conv1x1(xv, b.w), c2v);
  auto out = run(std::move(b.g), xv);
  expectNear(out[0], c3v);
}

TEST_CASE("conv residual not in place when the residual is read later", "[runtime][inplace]") {
  auto make = [](Builder& b) {
    ir::Value* x = b.input("x");
    ir::Value* r = b.op("Relu", "r", {x});
    ir::Value* c = b.convAdd("c", x, r);
    ir::Value* d = b.op("Add", "d", {c, r});  // r is needed after the Conv
    b.g.outputs = {d, r};                     // and is a model output
  };
  CHECK(sharedResiduals(make) == 0);
  Builder b;
  make(b);
  const auto xv = pattern(N, 0.23f);
  const auto rv = relu(xv);
  const auto cv = add(conv1x1(xv, b.w), rv);
  auto out = run(std::move(b.g), xv);
  expectNear(out[0], add(cv, rv));
  expectNear(out[1], rv);
}

TEST_CASE("conv residual not in place over a model input", "[runtime][inplace]") {
  auto make = [](Builder& b) {
    ir::Value* x = b.input("x");
    ir::Value* r = b.op("Relu", "r", {x});
    ir::Value* c = b.convAdd("c", r, x);  // x is the residual: its buffer must survive for rerun
    b.g.outputs = {c};
  };
  CHECK(sharedResiduals(make) == 0);
  Builder b;
  make(b);
  const auto xv = pattern(N, 0.31f);
  auto out = run(std::move(b.g), xv);  // run() checks the second run too
  expectNear(out[0], add(conv1x1(relu(xv), b.w), xv));
}
