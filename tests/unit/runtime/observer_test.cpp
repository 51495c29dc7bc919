// observer_test.cpp: the step observer sees every step, names each node exactly once when its
// outputs are final, and readValue returns plain row-major data whatever layout the runtime
// keeps (channels-last or blocked for Conv on this CPU, fp16 storage, aliases).
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <random>

#include "asc/runtime/session.h"
#include "asc/support/fp16.h"

using namespace asc;

namespace {

struct Recorder : runtime::StepObserver {
  std::vector<std::string> order;
  std::map<std::string, std::vector<float>> data;  // node output 0, as float
  size_t steps = 0;
  bool monotonic = true;
  int64_t last_end = 0;
  void onStep(const runtime::Session& s, const runtime::StepEvent& e) override {
    ++steps;
    if (e.start_ns > e.end_ns || e.start_ns < last_end) monotonic = false;
    last_end = e.end_ns;
    for (const ir::Node* n : *e.completes) {
      order.push_back(n->name);
      const ir::Value* v = n->outputs[0];
      std::vector<uint8_t> raw(v->byteSize());
      REQUIRE(s.readValue(v, raw.data()).isOk());
      std::vector<float>& out = data[n->name];
      const size_t count = static_cast<size_t>(v->numel());
      for (size_t i = 0; i < count; ++i)
        out.push_back(v->dtype == ir::DType::F16
                          ? halfToFloat(reinterpret_cast<const uint16_t*>(raw.data())[i])
                          : reinterpret_cast<const float*>(raw.data())[i]);
    }
  }
};

// x[1,C,H,W] -> Conv 3x3 pad 1 (C->C) -> Relu -> Reshape [1, C*H*W] -> output.
ir::Graph convGraph(ir::DType dt, int C, int H, int W, const std::vector<float>& w) {
  ir::Graph g;
  g.opset = 13;
  auto mk = [&](const char* name, ir::Shape s) {
    ir::Value* v = g.addValue(name);
    v->dtype = dt;
    v->shape = std::move(s);
    return v;
  };
  ir::Value* x = mk("x", {1, C, H, W});
  g.inputs.push_back(x);
  ir::Tensor wt{dt, {C, C, 3, 3}, {}};
  if (dt == ir::DType::F16) {
    std::vector<uint16_t> h(w.size());
    for (size_t i = 0; i < w.size(); ++i) h[i] = floatToHalf(w[i]);
    wt.data = ir::Blob::copyOf(h.data(), h.size() * 2);
  } else {
    wt.data = ir::Blob::copyOf(w.data(), w.size() * 4);
  }
  ir::Value* wv = g.addConstant("w", std::move(wt));
  ir::Value* c = mk("c", {1, C, H, W});
  ir::Value* r = mk("r", {1, C, H, W});
  ir::Value* f = mk("f", {1, int64_t(C) * H * W});
  ir::Node* conv = g.addNode("Conv", "conv", {x, wv}, {c});
  conv->attrs.set("pads", std::vector<int64_t>{1, 1, 1, 1});
  conv->attrs.set("kernel_shape", std::vector<int64_t>{3, 3});
  g.addNode("Relu", "relu", {c}, {r});
  ir::Node* fl = g.addNode("Flatten", "flatten", {r}, {f});
  fl->attrs.set("axis", int64_t{1});
  g.outputs.push_back(f);
  return g;
}

std::vector<float> naiveConv(const std::vector<float>& x, const std::vector<float>& w, int C, int H,
                             int W) {
  std::vector<float> y(size_t(C) * H * W, 0.f);
  for (int o = 0; o < C; ++o)
    for (int i = 0; i < H; ++i)
      for (int j = 0; j < W; ++j) {
        double acc = 0;
        for (int c = 0; c < C; ++c)
          for (int ki = 0; ki < 3; ++ki)
            for (int kj = 0; kj < 3; ++kj) {
              int ii = i + ki - 1, jj = j + kj - 1;
              if (ii < 0 || jj < 0 || ii >= H || jj >= W) continue;
              acc += double(x[(size_t(c) * H + ii) * W + jj]) *
                     w[((size_t(o) * C + c) * 3 + ki) * 3 + kj];
            }
        y[(size_t(o) * H + i) * W + j] = float(acc);
      }
  return y;
}

}  // namespace

TEST_CASE("step observer: every node once, plain data from any layout", "[runtime][observer]") {
  const int C = 16, H = 5, W = 7;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> w(size_t(C) * C * 9), x(size_t(C) * H * W);
  for (auto& v : w) v = u(rng);
  for (auto& v : x) v = u(rng);
  const auto is_fp16 = GENERATE(false, true);
  const ir::DType dt = is_fp16 ? ir::DType::F16 : ir::DType::F32;
  if (is_fp16) {  // the reference sees the same rounded inputs
    for (auto& v : w) v = halfToFloat(floatToHalf(v));
    for (auto& v : x) v = halfToFloat(floatToHalf(v));
  }
  auto s = runtime::Session::fromGraph(convGraph(dt, C, H, W, w));
  REQUIRE(s.isOk());
  Recorder rec;
  (*s)->setObserver(&rec);
  if (is_fp16) {
    std::vector<uint16_t> h(x.size());
    for (size_t i = 0; i < x.size(); ++i) h[i] = floatToHalf(x[i]);
    REQUIRE((*s)->setInput(0, h.data(), h.size() * 2).isOk());
  } else {
    REQUIRE((*s)->setInput(0, x.data(), x.size() * 4).isOk());
  }
  REQUIRE((*s)->run().isOk());

  CHECK(rec.steps == (*s)->stepCount());
  CHECK(rec.monotonic);
  CHECK(rec.order == std::vector<std::string>{"conv", "relu", "flatten"});
  const std::vector<float> want = naiveConv(x, w, C, H, W);
  const float tol = is_fp16 ? 2e-2f : 1e-4f;
  REQUIRE(rec.data["conv"].size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("conv element " << i);
    CHECK(std::fabs(rec.data["conv"][i] - want[i]) <= tol * (1 + std::fabs(want[i])));
    CHECK(rec.data["relu"][i] == std::max(0.f, rec.data["conv"][i]));
    CHECK(rec.data["flatten"][i] == rec.data["relu"][i]);
  }
  // The model output is the same data msame writes.
  std::vector<uint8_t> out((*s)->outputs()[0].bytes);
  std::memcpy(out.data(), (*s)->outputData(0), out.size());
  std::vector<uint8_t> read(out.size());
  REQUIRE((*s)->readValue((*s)->graph().outputs[0], read.data()).isOk());
  CHECK(out == read);

  // Without an observer the same run works and nothing is called.
  (*s)->setObserver(nullptr);
  const size_t before = rec.steps;
  REQUIRE((*s)->run().isOk());
  CHECK(rec.steps == before);
}

TEST_CASE("readValue refuses a value the session does not hold", "[runtime][observer]") {
  std::vector<float> w(9 * 4 * 4, 0.1f);
  auto s = runtime::Session::fromGraph(convGraph(ir::DType::F32, 4, 3, 3, w));
  REQUIRE(s.isOk());
  ir::Value stranger;
  stranger.name = "stranger";
  std::vector<float> buf(4);
  auto st = (*s)->readValue(&stranger, buf.data());
  CHECK_FALSE(st.isOk());
  CHECK(st.message().find("stranger") != std::string::npos);
}

namespace {
// Negates the conv's output once it is final (Session::writeValue): the later steps must see it.
struct Negator : runtime::StepObserver {
  runtime::Session* session = nullptr;
  int writes = 0;
  void onStep(const runtime::Session& s, const runtime::StepEvent& e) override {
    for (const ir::Node* n : *e.completes) {
      if (n->name != "conv") continue;
      const ir::Value* v = n->outputs[0];
      std::vector<uint8_t> raw(v->byteSize());
      REQUIRE(s.readValue(v, raw.data()).isOk());
      const size_t count = static_cast<size_t>(v->numel());
      for (size_t i = 0; i < count; ++i) {
        if (v->dtype == ir::DType::F16)
          reinterpret_cast<uint16_t*>(raw.data())[i] ^= 0x8000;
        else
          reinterpret_cast<float*>(raw.data())[i] *= -1.f;
      }
      REQUIRE(session->writeValue(v, raw.data()).isOk());
      ++writes;
    }
  }
};
}  // namespace

TEST_CASE("writeValue from an observer reaches the later steps", "[runtime][observer]") {
  const int C = 16, H = 5, W = 7;  // 16 channels: the conv output is kept blocked on this CPU
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> w(size_t(C) * C * 9), x(size_t(C) * H * W);
  for (auto& v : w) v = u(rng);
  for (auto& v : x) v = u(rng);
  const auto is_fp16 = GENERATE(false, true);  // fp16: stored fp16, computed in fp32 copies
  const ir::DType dt = is_fp16 ? ir::DType::F16 : ir::DType::F32;
  if (is_fp16) {
    for (auto& v : w) v = halfToFloat(floatToHalf(v));
    for (auto& v : x) v = halfToFloat(floatToHalf(v));
  }
  auto s = runtime::Session::fromGraph(convGraph(dt, C, H, W, w));
  REQUIRE(s.isOk());
  if (is_fp16) {
    std::vector<uint16_t> h(x.size());
    for (size_t i = 0; i < x.size(); ++i) h[i] = floatToHalf(x[i]);
    REQUIRE((*s)->setInput(0, h.data(), h.size() * 2).isOk());
  } else {
    REQUIRE((*s)->setInput(0, x.data(), x.size() * 4).isOk());
  }
  // Outside an observer's onStep, and for a constant, writeValue is refused.
  const ir::Value* conv_out = (*s)->graph().findValue("c");
  REQUIRE(conv_out);
  std::vector<uint8_t> scratch(conv_out->byteSize());
  CHECK_FALSE((*s)->writeValue(conv_out, scratch.data()).isOk());
  CHECK_FALSE((*s)->writeValue((*s)->graph().findValue("w"), scratch.data()).isOk());

  Negator neg;
  neg.session = s->get();
  (*s)->setObserver(&neg);
  REQUIRE((*s)->run().isOk());
  CHECK(neg.writes == 1);
  const std::vector<float> conv = naiveConv(x, w, C, H, W);
  const float tol = is_fp16 ? 2e-2f : 1e-4f;
  size_t bad = 0, positive = 0;
  for (size_t i = 0; i < conv.size(); ++i) {
    const float got = is_fp16 ? halfToFloat(static_cast<const uint16_t*>((*s)->outputData(0))[i])
                              : static_cast<const float*>((*s)->outputData(0))[i];
    const float want = std::max(0.f, -conv[i]);  // Relu of the negated conv
    bad += !(std::fabs(got - want) <= tol * (1 + std::fabs(want)));
    positive += want > 0;
  }
  CHECK(bad == 0);
  CHECK(positive > conv.size() / 4);  // the check is not met by zeros alone
}
