// signal_test.cpp: DFT and STFT kernels against a naive complex sum written here, the window
// ops against their textbook formulas, MelWeightMatrix against the official ONNX test's
// expected matrix, and the compile-time-constant rule for sizes.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>

#include "testkit/kernel_runner.h"

using namespace asc::optest;
using cd = std::complex<double>;

namespace {

const double kPi = std::acos(-1.0);

std::vector<float> ramp(size_t n, float a = 0.37f, float b = 0.11f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(a * static_cast<float>(i)) + b * (i % 5);
  return v;
}

// Naive DFT of x (already padded/truncated to n) with all n bins.
std::vector<cd> naiveDft(const std::vector<cd>& x, bool inverse) {
  const size_t n = x.size();
  std::vector<cd> y(n);
  for (size_t k = 0; k < n; ++k) {
    cd s = 0;
    for (size_t t = 0; t < n; ++t)
      s += x[t] * std::polar(1.0, (inverse ? 2 : -2) * kPi * double(k * t) / double(n));
    y[k] = inverse ? s / double(n) : s;
  }
  return y;
}

// DFT of x [d0, d1, d2, c] over `axis` (1 or 2), padded/truncated to n, keeping `bins`.
std::vector<float> referenceDft(const std::vector<float>& x, Ints shape, int64_t axis, int64_t n,
                                int64_t bins, bool inverse) {
  const int64_t c = shape[3];
  Ints out_shape = shape;
  out_shape[axis] = bins;
  out_shape[3] = 2;
  std::vector<float> y(ir::numElements(out_shape));
  auto idx = [](const Ints& s, int64_t a, int64_t b, int64_t d, int64_t e) {
    return ((a * s[1] + b) * s[2] + d) * s[3] + e;
  };
  const int64_t other = axis == 1 ? shape[2] : shape[1];
  for (int64_t a = 0; a < shape[0]; ++a)
    for (int64_t o = 0; o < other; ++o) {
      std::vector<cd> sig(n, 0.0);
      for (int64_t t = 0; t < std::min(n, shape[axis]); ++t) {
        const int64_t i = axis == 1 ? idx(shape, a, t, o, 0) : idx(shape, a, o, t, 0);
        sig[t] = cd(x[i], c == 2 ? x[i + 1] : 0.f);
      }
      auto f = naiveDft(sig, inverse);
      for (int64_t k = 0; k < bins; ++k) {
        const int64_t i = axis == 1 ? idx(out_shape, a, k, o, 0) : idx(out_shape, a, o, k, 0);
        y[i] = static_cast<float>(f[k].real());
        y[i + 1] = static_cast<float>(f[k].imag());
      }
    }
  return y;
}

void checkClose(const std::vector<float>& got, const std::vector<float>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(got[i] == Approx(want[i]).margin(1e-4));
  }
}

struct DftCase {
  Ints shape;
  int64_t axis;
  int64_t dft_length;  // 0: none
  bool inverse, onesided;
};

}  // namespace

TEST_CASE("DFT matches a naive complex sum", "[ops][signal]") {
  const std::vector<DftCase> cases = {
      {{2, 6, 3, 1}, 1, 0, false, false},
      {{2, 6, 3, 1}, 2, 0, false, false},
      {{1, 7, 2, 2}, 1, 0, true, false},
      {{2, 6, 3, 1}, 1, 0, false, true},
      {{1, 5, 2, 2}, 1, 8, false, false},
      {{1, 9, 2, 1}, 1, 4, false, true},
      {{1, 3, 5, 2}, -2, 0, false, false},
      // Power-of-two lengths take the FFT path: plain, padded, truncated, inverse, one-sided.
      {{1, 64, 2, 2}, 1, 0, true, false},
      {{2, 16, 3, 1}, 1, 0, false, true},
      {{1, 20, 1, 2}, 1, 32, false, false},
      {{1, 3, 40, 1}, 2, 16, false, true},
      {{1, 2, 128, 2}, 2, 0, false, false},
  };
  for (const DftCase& c : cases) {
    INFO("shape [" << ir::shapeToString(c.shape) << "] axis " << c.axis << " n " << c.dft_length
                   << " inverse " << c.inverse << " onesided " << c.onesided);
    OpTester t("DFT", 17);
    t.input(DType::F32, c.shape);
    if (c.dft_length) t.constInts({c.dft_length}, {});
    t.attr("axis", c.axis)
        .attr("inverse", int64_t{c.inverse})
        .attr("onesided", int64_t{c.onesided});
    const int64_t axis = c.axis < 0 ? c.axis + 4 : c.axis;
    const int64_t n = c.dft_length ? c.dft_length : c.shape[axis];
    const int64_t bins = c.onesided ? n / 2 + 1 : n;
    const auto x = ramp(ir::numElements(c.shape));
    auto got = runKernel<float>(t, {bytesOf(x)});
    // (checkClose also checks the size: the inferred output has bins on the axis, 2 at the end)
    checkClose(got, referenceDft(x, c.shape, axis, n, bins, c.inverse));
  }
}

TEST_CASE("DFT shape rules and a run-time dft_length", "[ops][signal]") {
  OpTester r("DFT", 17);
  r.input(DType::F32, {1, 8, 1}).input(DType::I64, {});
  CHECK(mentions(r.run(),
                 "input 1 ('in1') must be known at compile time (a constant): it sets "
                 "the output's shape"));
  OpTester a("DFT", 17);
  a.input(DType::F32, {1, 8, 1}).attr("axis", int64_t{2});
  CHECK(mentions(a.run(), "axis 2"));
  OpTester l("DFT", 17);
  l.input(DType::F32, {1, 8, 3});
  CHECK(mentions(l.run(), "1 or 2"));
  OpTester oc("DFT", 17);
  oc.input(DType::F32, {1, 8, 2}).attr("onesided", int64_t{1});
  CHECK(mentions(oc.run(), "needs a real input"));
  OpTester io("DFT", 17);
  io.input(DType::F32, {1, 8, 2}).attr("inverse", int64_t{1}).attr("onesided", int64_t{1});
  CHECK(io.run().code() == ErrorCode::NotImplemented);
  OpTester big("DFT", 17);
  big.input(DType::F32, {1, 8, 1}).constInts({int64_t{1} << 40}, {});
  CHECK(mentions(big.run(), "over 2^28"));
  // Opset 20: the axis is input 2 (default -2).
  OpTester o20("DFT", 20);
  o20.input(DType::F32, {1, 4, 6, 1}).none().constInts({1}, {});
  REQUIRE(o20.run().isOk());
  CHECK(o20.out().shape == Ints{1, 4, 6, 2});
  OpTester d20("DFT", 20);
  d20.input(DType::F32, {1, 4, 6, 1});
  REQUIRE(d20.run().isOk());
  CHECK(d20.node()->attrs.getInt("axis", 0) == 2);
}

TEST_CASE("STFT matches windowed naive DFTs of its frames", "[ops][signal]") {
  const int64_t len = 40, step = 6;
  const auto x = ramp(len, 0.53f, 0.2f);
  // 8 points: the FFT path; 6: the direct sum.
  for (int64_t frame : {8, 6})
    for (bool onesided : {true, false})
      for (bool window : {true, false}) {
        INFO("frame " << frame << " onesided " << onesided << " window " << window);
        std::vector<float> w(frame);
        for (int64_t i = 0; i < frame; ++i) w[i] = 0.5f - 0.5f * std::cos(2 * kPi * i / frame);
        OpTester t("STFT", 17);
        t.input(DType::F32, {1, len, 1}).constInts({step}, {});
        if (window)
          t.input(DType::F32, {frame});
        else
          t.none().constInts({frame}, {});
        t.attr("onesided", int64_t{onesided});
        std::vector<std::vector<uint8_t>> ins = {bytesOf(x)};
        if (window) ins.push_back(bytesOf(w));
        auto got = runKernel<float>(t, ins);
        const int64_t frames = (len - frame) / step + 1, bins = onesided ? frame / 2 + 1 : frame;
        std::vector<float> want;
        for (int64_t f = 0; f < frames; ++f) {
          std::vector<cd> sig(frame);
          for (int64_t i = 0; i < frame; ++i) sig[i] = x[f * step + i] * (window ? w[i] : 1.f);
          auto y = naiveDft(sig, false);
          for (int64_t k = 0; k < bins; ++k) {
            want.push_back(static_cast<float>(y[k].real()));
            want.push_back(static_cast<float>(y[k].imag()));
          }
        }
        checkClose(got, want);
      }
}

TEST_CASE("STFT checks its frame parameters", "[ops][signal]") {
  OpTester s("STFT", 17);
  s.input(DType::F32, {1, 32, 1}).input(DType::I64, {}).none().constInts({8}, {});
  CHECK(mentions(s.run(), "input 1 ('in1') must be known at compile time"));
  OpTester n("STFT", 17);
  n.input(DType::F32, {1, 32, 1}).constInts({4}, {});
  CHECK(mentions(n.run(), "frame length is unknown"));
  OpTester m("STFT", 17);
  m.input(DType::F32, {1, 32, 1}).constInts({4}, {}).input(DType::F32, {16}).constInts({8}, {});
  CHECK(mentions(m.run(), "differs from the window"));
  OpTester cx("STFT", 17);
  cx.input(DType::F32, {2, 32, 2}).constInts({5}, {}).input(DType::F32, {8});
  CHECK(mentions(cx.run(), "needs a real signal"));
  OpTester ok("STFT", 17);
  ok.input(DType::F32, {2, 32, 2}).constInts({5}, {}).input(DType::F32, {8});
  ok.attr("onesided", int64_t{0});
  REQUIRE(ok.run().isOk());
  CHECK(ok.out().shape == Ints{2, 5, 8, 2});
  OpTester l("STFT", 17);
  l.input(DType::F32, {1, 32, 1}).constInts({4}, {}).none().constInts({64}, {});
  CHECK(mentions(l.run(), "frame length 64"));
}

TEST_CASE("window ops fold to their formulas", "[ops][signal]") {
  struct W {
    const char* op;
    double (*f)(double n, double N);
  };
  const W windows[] = {
      {"HannWindow", [](double n, double N) { return std::pow(std::sin(kPi * n / N), 2); }},
      {"HammingWindow",
       [](double n, double N) { return 0.54347826 - 0.45652174 * std::cos(2 * kPi * n / N); }},
      {"BlackmanWindow",
       [](double n, double N) {
         return 0.42 - 0.5 * std::cos(2 * kPi * n / N) + 0.08 * std::cos(4 * kPi * n / N);
       }},
  };
  for (const W& w : windows)
    for (int64_t periodic : {1, 0}) {
      INFO(w.op << " periodic " << periodic);
      OpTester t(w.op, 17);
      t.constInts({10}, {}).attr("periodic", periodic);
      REQUIRE(t.run().isOk());
      REQUIRE(t.out().isConstant());
      CHECK(t.out().shape == Ints{10});
      CHECK(t.out().dtype == DType::F32);
      auto got = doublesOf(t.out());
      for (int64_t i = 0; i < 10; ++i)
        CHECK(got[i] == Approx(w.f(double(i), periodic ? 10.0 : 9.0)).margin(1e-6));
    }
  // The official test_hannwindow output was generated with pi ~ 3.1415 (it is not symmetric):
  // the exact formula stays within the conformance tolerance (rtol 1e-3) of it.
  const double official[] = {0.0, 0.09548607, 0.34547389, 0.65448201, 0.90448672,
                             1.0, 0.90454125, 0.65457022, 0.34556198, 0.09554043};
  OpTester h("HannWindow", 17);
  h.constInts({10}, {});
  REQUIRE(h.run().isOk());
  const auto hann = doublesOf(h.out());
  for (int i = 0; i < 10; ++i) CHECK(std::abs(hann[i] - official[i]) <= 1e-7 + 1e-3 * official[i]);
  OpTester d("HannWindow", 17);
  d.constInts({4}, {}).attr("output_datatype", int64_t{11});
  REQUIRE(d.run().isOk());
  CHECK(d.out().dtype == DType::F64);
  OpTester r("HammingWindow", 17);
  r.input(DType::I64, {});
  CHECK(mentions(r.run(),
                 "input 0 ('in0') must be known at compile time (a constant): it sets "
                 "the output's shape"));
  // Not folded (folding off), the kernel writes the same values.
  OpTester k("BlackmanWindow", 17);
  k.constInts({5}, {});
  auto got = runKernel<float>(k, {});
  for (int64_t i = 0; i < 5; ++i)
    CHECK(got[i] == Approx(windows[2].f(double(i), 5.0)).margin(1e-6));
}

TEST_CASE("MelWeightMatrix folds to the ONNX test's matrix", "[ops][signal]") {
  // test_melweightmatrix: 8 bins, dft_length 16, 8192 Hz, edges 0 and 4096 Hz.
  OpTester t("MelWeightMatrix", 17);
  const int32_t bins = 8, n = 16, rate = 8192;
  t.constant(DType::I32, {}, &bins, 4).constant(DType::I32, {}, &n, 4);
  t.constant(DType::I32, {}, &rate, 4).constFloats({0.f}, {}).constFloats({4096.f}, {});
  REQUIRE(t.run().isOk());
  REQUIRE(t.out().isConstant());
  CHECK(t.out().shape == Ints{9, 8});
  std::vector<double> want(72, 0.0);
  // Row, column of each 1 in the expected output (everything else is 0).
  const int ones[][2] = {{0, 0}, {0, 1}, {1, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 6}, {5, 7}};
  for (auto [r, c] : ones) want[r * 8 + c] = 1.0;
  CHECK(doublesOf(t.out()) == want);
  // A wider bank has fractional slopes: each filter rises to 1 at its centre.
  OpTester w("MelWeightMatrix", 17);
  const int64_t b2 = 4, n2 = 64, r2 = 16000;
  w.constInts({b2}, {}).constInts({n2}, {}).constInts({r2}, {});
  w.constFloats({100.f}, {}).constFloats({6000.f}, {});
  REQUIRE(w.run().isOk());
  CHECK(w.out().shape == Ints{33, 4});
  auto m = doublesOf(w.out());
  for (int64_t c = 0; c < 4; ++c) {
    double peak = 0;
    for (int64_t r = 0; r < 33; ++r) peak = std::max(peak, m[r * 4 + c]);
    CHECK(peak == 1.0);
  }
  OpTester rt("MelWeightMatrix", 17);
  rt.input(DType::I64, {}).constInts({16}, {}).constInts({8000}, {});
  rt.constFloats({0.f}, {}).constFloats({4000.f}, {});
  CHECK(mentions(rt.run(), "input 0 ('in0') must be known at compile time"));
}

TEST_CASE("DFT spreads its transforms over threads with the same result", "[ops][signal]") {
  // 3 * 5 transforms of 32 points (FFT) and of 12 (direct) on 4 threads against 1 thread.
  for (int64_t n : {32, 12}) {
    const ir::Shape shape{3, n, 5, 2};
    const auto x = ramp(ir::numElements(shape), 0.21f, 0.3f);
    std::vector<std::vector<float>> results;
    for (int threads : {1, 4}) {
      OpTester t("DFT", 17);
      t.input(DType::F32, shape);
      REQUIRE(t.run(/*fold=*/false).isOk());
      runtime::SessionOptions so;
      so.threads = threads;
      auto session = runtime::Session::fromGraph(std::move(t.graph()), so);
      REQUIRE(session.isOk());
      REQUIRE((*session)->setInput(0, x.data(), x.size() * sizeof(float)).isOk());
      REQUIRE((*session)->run().isOk());
      const auto* y = static_cast<const float*>((*session)->outputData(0));
      results.emplace_back(y, y + x.size());
    }
    CHECK(results[0] == results[1]);
    checkClose(results[0], referenceDft(x, shape, 1, n, n, false));
  }
}

TEST_CASE("STFT of a complex signal (two-sided)", "[ops][signal]") {
  const int64_t len = 30, step = 4;
  const auto x = ramp(2 * len, 0.29f, 0.15f);  // [1, len, 2]
  for (int64_t frame : {8, 7}) {
    INFO("frame " << frame);
    OpTester t("STFT", 17);
    t.input(DType::F32, {1, len, 2}).constInts({step}, {}).none().constInts({frame}, {});
    t.attr("onesided", int64_t{0});
    auto got = runKernel<float>(t, {bytesOf(x)});
    std::vector<float> want;
    for (int64_t f = 0; f < (len - frame) / step + 1; ++f) {
      std::vector<cd> sig(frame);
      for (int64_t i = 0; i < frame; ++i)
        sig[i] = cd(x[2 * (f * step + i)], x[2 * (f * step + i) + 1]);
      for (const cd& v : naiveDft(sig, false)) {
        want.push_back(static_cast<float>(v.real()));
        want.push_back(static_cast<float>(v.imag()));
      }
    }
    checkClose(got, want);
  }
}
