// rnn_test.cpp: RNN, GRU and LSTM kernels against a naive reference written from ONNX's
// equations (gate by gate), forward, reverse and bidirectional, with biases, initial states,
// sequence lengths and LSTM peepholes; and the shape checks.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>

#include "testkit/kernel_runner.h"
#include "testkit/op_tester.h"

using namespace asc::optest;

namespace {

double sig(double x) { return 1 / (1 + std::exp(-x)); }

struct Setup {
  int64_t seq = 3, batch = 2, in = 3, hid = 2, dirs = 1;
  std::vector<float> X, W, R, B, h0, c0, P;
  std::vector<int32_t> lens = {3, 2};
};

std::vector<float> ramp(size_t n, float scale, float shift) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>((i * 7) % 11) + shift;
  return v;
}

// Gate g's pre-activation for direction d: x W_g^T + h R_g^T + Wb_g + Rb_g (as separate parts).
double dot(const std::vector<float>& m, int64_t row, const std::vector<double>& v) {
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i) s += m[row * v.size() + i] * v[i];
  return s;
}

// Reference: returns Y [seq, dirs, batch, hid] and Y_h, Y_c [dirs, batch, hid].
void reference(const std::string& op, const Setup& s, std::vector<double>* Y,
               std::vector<double>* Yh, std::vector<double>* Yc, bool lbr = false) {
  const int64_t G = op == "RNN" ? 1 : op == "GRU" ? 3 : 4, H = s.hid;
  Y->assign(s.seq * s.dirs * s.batch * H, 0);
  Yh->assign(s.dirs * s.batch * H, 0);
  Yc->assign(s.dirs * s.batch * H, 0);
  for (int64_t d = 0; d < s.dirs; ++d) {
    // Per-direction weight slices.
    std::vector<float> W(s.W.begin() + d * G * H * s.in, s.W.begin() + (d + 1) * G * H * s.in);
    std::vector<float> R(s.R.begin() + d * G * H * H, s.R.begin() + (d + 1) * G * H * H);
    for (int64_t b = 0; b < s.batch; ++b) {
      std::vector<double> h(H), c(H);
      for (int64_t j = 0; j < H; ++j) {
        h[j] = s.h0[(d * s.batch + b) * H + j];
        if (!s.c0.empty()) c[j] = s.c0[(d * s.batch + b) * H + j];
      }
      const int64_t len = s.lens[b];
      for (int64_t step = 0; step < len; ++step) {
        const int64_t t = d == 1 ? len - 1 - step : step;
        std::vector<double> x(s.in);
        for (int64_t i = 0; i < s.in; ++i) x[i] = s.X[(t * s.batch + b) * s.in + i];
        auto wb = [&](int64_t g, int64_t j) { return double(s.B[d * 2 * G * H + g * H + j]); };
        auto rb = [&](int64_t g, int64_t j) {
          return double(s.B[d * 2 * G * H + G * H + g * H + j]);
        };
        std::vector<double> nh(H), nc(H);
        for (int64_t j = 0; j < H; ++j) {
          auto pre = [&](int64_t g) {
            return dot(W, g * H + j, x) + dot(R, g * H + j, h) + wb(g, j) + rb(g, j);
          };
          if (op == "RNN") {
            nh[j] = std::tanh(pre(0));
          } else if (op == "GRU") {
            const double z = sig(pre(0));
            std::vector<double> rh(H);
            for (int64_t k = 0; k < H; ++k) {
              const double rk = sig(dot(W, H + k, x) + dot(R, H + k, h) + wb(1, k) + rb(1, k));
              rh[k] = rk * h[k];
            }
            // linear_before_reset: r * (h Rh^T + Rbh), else (r * h) Rh^T + Rbh.
            const double hh =
                lbr ? std::tanh(dot(W, 2 * H + j, x) + wb(2, j) +
                                sig(dot(W, H + j, x) + dot(R, H + j, h) + wb(1, j) + rb(1, j)) *
                                    (dot(R, 2 * H + j, h) + rb(2, j)))
                    : std::tanh(dot(W, 2 * H + j, x) + dot(R, 2 * H + j, rh) + wb(2, j) + rb(2, j));
            nh[j] = (1 - z) * hh + z * h[j];
          } else {
            const double* none = nullptr;
            (void)none;
            const double pi = s.P.empty() ? 0 : s.P[d * 3 * H + j];
            const double po = s.P.empty() ? 0 : s.P[d * 3 * H + H + j];
            const double pf = s.P.empty() ? 0 : s.P[d * 3 * H + 2 * H + j];
            const double i = sig(pre(0) + pi * c[j]);
            const double f = sig(pre(2) + pf * c[j]);
            nc[j] = f * c[j] + i * std::tanh(pre(3));
            const double o = sig(pre(1) + po * nc[j]);
            nh[j] = o * std::tanh(nc[j]);
          }
        }
        h = nh;
        if (op == "LSTM") c = nc;
        for (int64_t j = 0; j < H; ++j) (*Y)[((t * s.dirs + d) * s.batch + b) * H + j] = h[j];
      }
      for (int64_t j = 0; j < H; ++j) {
        (*Yh)[(d * s.batch + b) * H + j] = h[j];
        (*Yc)[(d * s.batch + b) * H + j] = c[j];
      }
    }
  }
}

}  // namespace

TEST_CASE("RNN, GRU and LSTM match ONNX's equations", "[ops][rnn]") {
  for (const char* op : {"RNN", "GRU", "LSTM"}) {
    for (const char* dir : {"forward", "bidirectional"}) {
      INFO(op << " " << dir);
      Setup s;
      const std::string o = op;
      const int64_t G = o == "RNN" ? 1 : o == "GRU" ? 3 : 4;
      s.dirs = std::string(dir) == "bidirectional" ? 2 : 1;
      s.X = ramp(s.seq * s.batch * s.in, 0.1f, -0.4f);
      s.W = ramp(s.dirs * G * s.hid * s.in, 0.07f, -0.3f);
      s.R = ramp(s.dirs * G * s.hid * s.hid, -0.05f, 0.2f);
      s.B = ramp(s.dirs * 2 * G * s.hid, 0.03f, -0.1f);
      s.h0 = ramp(s.dirs * s.batch * s.hid, 0.1f, -0.2f);
      if (o == "LSTM") {
        s.c0 = ramp(s.dirs * s.batch * s.hid, -0.1f, 0.3f);
        s.P = ramp(s.dirs * 3 * s.hid, 0.05f, -0.2f);
      }
      std::vector<double> Y, Yh, Yc;
      reference(o, s, &Y, &Yh, &Yc);
      auto make = [&] {
        OpTester t(op, 14);
        t.input(DType::F32, {s.seq, s.batch, s.in})
            .input(DType::F32, {s.dirs, G * s.hid, s.in})
            .input(DType::F32, {s.dirs, G * s.hid, s.hid})
            .input(DType::F32, {s.dirs, 2 * G * s.hid})
            .input(DType::I32, {s.batch})
            .input(DType::F32, {s.dirs, s.batch, s.hid});
        if (o == "LSTM")
          t.input(DType::F32, {s.dirs, s.batch, s.hid}).input(DType::F32, {s.dirs, 3 * s.hid});
        t.attr("hidden_size", s.hid).attr("direction", std::string(dir));
        t.outputs(o == "LSTM" ? 3 : 2);
        return t;
      };
      std::vector<std::vector<uint8_t>> args = {bytesOf(s.X), bytesOf(s.W),    bytesOf(s.R),
                                                bytesOf(s.B), bytesOf(s.lens), bytesOf(s.h0)};
      if (o == "LSTM") {
        args.push_back(bytesOf(s.c0));
        args.push_back(bytesOf(s.P));
      }
      OpTester ty = make();
      auto gy = runKernel<float>(ty, args, 0);
      REQUIRE(gy.size() == Y.size());
      for (size_t i = 0; i < Y.size(); ++i) CHECK(gy[i] == Approx(Y[i]).epsilon(1e-5).margin(1e-6));
      OpTester th = make();
      auto gh = runKernel<float>(th, args, 1);
      for (size_t i = 0; i < Yh.size(); ++i)
        CHECK(gh[i] == Approx(Yh[i]).epsilon(1e-5).margin(1e-6));
      if (o == "LSTM") {
        OpTester tc = make();
        auto gc = runKernel<float>(tc, args, 2);
        for (size_t i = 0; i < Yc.size(); ++i)
          CHECK(gc[i] == Approx(Yc[i]).epsilon(1e-5).margin(1e-6));
      }
    }
  }
}

TEST_CASE("RNN shape checks and layout 1", "[ops][rnn]") {
  OpTester t("GRU", 14);
  t.input(DType::F32, {4, 5, 3}).input(DType::F32, {1, 6, 3}).input(DType::F32, {1, 6, 2});
  t.attr("layout", int64_t{1}).outputs(2);
  REQUIRE(t.run().isOk());
  CHECK(t.out(0).shape == ir::Shape{4, 5, 1, 2});  // [batch, seq, dirs, hidden]
  CHECK(t.out(1).shape == ir::Shape{4, 1, 2});
  CHECK(t.node()->attrs.getInt("hidden_size", 0) == 2);
  OpTester bad("LSTM", 14);
  bad.input(DType::F32, {4, 5, 3}).input(DType::F32, {1, 6, 3}).input(DType::F32, {1, 6, 2});
  CHECK(mentions(bad.run(), "W has shape"));
  OpTester act("RNN", 14);
  act.input(DType::F32, {4, 5, 3}).input(DType::F32, {1, 2, 3}).input(DType::F32, {1, 2, 2});
  act.attr("activations", std::vector<std::string>{"Gelu"});
  CHECK(mentions(act.run(), "activation"));
}

TEST_CASE("LSTM and GRU with constant weights run as one oneDNN primitive, to ONNX's equations",
          "[ops][rnn]") {
  // The fused kernel (rnn_fused.cpp) serves default activations, no clip, no sequence_lens and
  // no peepholes, with W, R and B constants: here with initial states, both GRU variants and
  // both directions (the second direction runs in reverse).
  struct Case {
    const char* op;
    const char* dir;
    bool lbr;
  };
  for (const Case c : {Case{"LSTM", "forward", false}, Case{"LSTM", "bidirectional", false},
                       Case{"GRU", "forward", false}, Case{"GRU", "bidirectional", true},
                       Case{"GRU", "forward", true}}) {
    INFO(c.op << " " << c.dir << " lbr " << c.lbr);
    Setup s;  // a batch of 5: the own kernel (rnn_own.cpp) takes batches up to 4
    s.seq = 5;
    s.batch = 5;
    s.in = 7;
    s.hid = 16;
    s.lens = {5, 5, 5, 5, 5};
    const std::string o = c.op;
    const int64_t G = o == "GRU" ? 3 : 4;
    s.dirs = std::string(c.dir) == "bidirectional" ? 2 : 1;
    s.X = ramp(s.seq * s.batch * s.in, 0.1f, -0.4f);
    s.W = ramp(s.dirs * G * s.hid * s.in, 0.03f, -0.15f);
    s.R = ramp(s.dirs * G * s.hid * s.hid, -0.02f, 0.1f);
    s.B = ramp(s.dirs * 2 * G * s.hid, 0.03f, -0.1f);
    s.h0 = ramp(s.dirs * s.batch * s.hid, 0.1f, -0.2f);
    if (o == "LSTM") s.c0 = ramp(s.dirs * s.batch * s.hid, -0.1f, 0.3f);
    std::vector<double> Y, Yh, Yc;
    reference(o, s, &Y, &Yh, &Yc, c.lbr);

    OpTester t(c.op, 14);
    t.input(DType::F32, {s.seq, s.batch, s.in})
        .constFloats(s.W, {s.dirs, G * s.hid, s.in})
        .constFloats(s.R, {s.dirs, G * s.hid, s.hid})
        .constFloats(s.B, {s.dirs, 2 * G * s.hid})
        .none()
        .input(DType::F32, {s.dirs, s.batch, s.hid});
    if (o == "LSTM") t.input(DType::F32, {s.dirs, s.batch, s.hid});
    t.attr("hidden_size", s.hid).attr("direction", std::string(c.dir));
    if (c.lbr) t.attr("linear_before_reset", int64_t{1});
    t.outputs(o == "LSTM" ? 3 : 2);
    REQUIRE(t.run(/*fold=*/false).isOk());
    auto session = runtime::Session::fromGraph(std::move(t.graph()));
    REQUIRE(session.isOk());
    const std::string plan = (*session)->describe();
    CHECK(plan.find("rnn:") != std::string::npos);  // the fused kernel
    CHECK(plan.find("avx2:own") == std::string::npos);
    std::vector<std::vector<float>> in = {s.X, s.h0};
    if (o == "LSTM") in.push_back(s.c0);
    for (size_t i = 0; i < in.size(); ++i)
      REQUIRE((*session)->setInput(i, in[i].data(), in[i].size() * 4).isOk());
    REQUIRE((*session)->run().isOk());
    auto check = [&](size_t out, const std::vector<double>& want) {
      const float* got = static_cast<const float*>((*session)->outputData(out));
      for (size_t i = 0; i < want.size(); ++i)
        CHECK(got[i] == Approx(want[i]).epsilon(1e-5).margin(1e-5));
    };
    check(0, Y);
    check(1, Yh);
    if (o == "LSTM") check(2, Yc);
  }
}

TEST_CASE("LSTM and GRU at small batches run on the runtime's own AVX2 kernel, equal to the loops",
          "[ops][rnn][rnn_own]") {
  // rnn_own.cpp against rnn_kernel.cpp's loops (checked against the reference above): both
  // directions alone and together, batches 1-4, hidden sizes of an odd block count (24, 40),
  // with and without initial states, 1 and 2 threads, inputs large enough to saturate every
  // gate (the vectorized sigmoid and tanh at their ends), and GRU with linear_before_reset 1
  // (its Rbh inside r's product); GRU without it keeps oneDNN's kernel.
  struct Case {
    const char* op;
    const char* dir;
    int64_t batch, hid, in;
    bool states;
    int threads;
    float scale;
    bool lbr = true;
  };
  for (const Case c : {Case{"LSTM", "forward", 1, 24, 5, true, 2, 0.03f},
                       Case{"LSTM", "reverse", 3, 16, 7, false, 1, 0.03f},
                       Case{"LSTM", "bidirectional", 2, 8, 3, true, 2, 0.05f},
                       Case{"LSTM", "bidirectional", 1, 40, 6, false, 1, 0.02f},
                       Case{"LSTM", "forward", 4, 32, 9, true, 2, 2.0f},
                       Case{"GRU", "bidirectional", 1, 24, 5, true, 2, 0.03f},
                       Case{"GRU", "reverse", 2, 16, 4, false, 2, 0.05f},
                       Case{"GRU", "forward", 3, 40, 6, true, 1, 2.0f},
                       Case{"GRU", "forward", 1, 16, 4, true, 2, 0.03f, false}}) {
    INFO(c.op << " " << c.dir << " batch " << c.batch << " hidden " << c.hid << " threads "
              << c.threads << " lbr " << c.lbr);
    const bool lstm = std::string(c.op) == "LSTM";
    const int64_t seq = 6, G = lstm ? 4 : 3, D = std::string(c.dir) == "bidirectional" ? 2 : 1;
    const auto X = ramp(seq * c.batch * c.in, 0.1f * c.scale / 0.03f, -0.4f);
    auto build = [&] {
      OpTester t(c.op, 14);
      t.input(DType::F32, {seq, c.batch, c.in})
          .constFloats(ramp(D * G * c.hid * c.in, c.scale, -0.15f), {D, G * c.hid, c.in})
          .constFloats(ramp(D * G * c.hid * c.hid, -0.02f, 0.1f), {D, G * c.hid, c.hid})
          .constFloats(ramp(D * 2 * G * c.hid, 0.03f, -0.1f), {D, 2 * G * c.hid});
      if (c.states) {
        t.none().input(DType::F32, {D, c.batch, c.hid});
        if (lstm) t.input(DType::F32, {D, c.batch, c.hid});
      }
      t.attr("hidden_size", c.hid).attr("direction", std::string(c.dir)).outputs(lstm ? 3 : 2);
      if (!lstm) t.attr("linear_before_reset", int64_t{c.lbr ? 1 : 0});
      REQUIRE(t.run(/*fold=*/false).isOk());
      asc::runtime::SessionOptions opts;
      opts.threads = c.threads;
      auto session = asc::runtime::Session::fromGraph(std::move(t.graph()), opts);
      REQUIRE(session.isOk());
      std::vector<std::vector<float>> in = {X};
      if (c.states) {
        in.push_back(ramp(D * c.batch * c.hid, 0.1f, -0.2f));
        if (lstm) in.push_back(ramp(D * c.batch * c.hid, -0.1f, 0.3f));
      }
      for (size_t i = 0; i < in.size(); ++i)
        REQUIRE((*session)->setInput(i, in[i].data(), in[i].size() * 4).isOk());
      REQUIRE((*session)->run().isOk());
      return std::move(*session);
    };
    auto own = build();
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    CHECK((own->describe().find("avx2:own") != std::string::npos) == (avx2 && c.lbr));
    setenv("ASC_RNN_LOOP", "1", 1);
    auto loops = build();
    unsetenv("ASC_RNN_LOOP");
    CHECK(loops->describe().find("avx2:own") == std::string::npos);
    for (size_t o = 0; o < (lstm ? 3u : 2u); ++o) {
      INFO("output " << o);
      const size_t n = own->outputs()[o].bytes / 4;
      REQUIRE(n == loops->outputs()[o].bytes / 4);
      const float* got = static_cast<const float*>(own->outputData(o));
      const float* want = static_cast<const float*>(loops->outputData(o));
      for (size_t i = 0; i < n; ++i) {
        REQUIRE(std::isfinite(got[i]));
        CHECK(got[i] == Approx(want[i]).epsilon(1e-5).margin(2e-6));
      }
    }
  }
}
