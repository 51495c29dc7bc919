// own_conv_test.cpp: the runtime's own convolutions. On an AVX2 CPU (nChw8c activations): 3x3
// stride-1 ones with an output of at least 28x28 on the Winograd F(2x2, 3x3) kernel
// (ops/conv/winograd_avx2.cpp), others with an output of at most 7x7 (1x1 ones too) on the
// matrix-product kernel (ops/conv/gemm_conv_avx2.cpp). On an AVX-512 CPU (NHWC activations):
// 3x3 stride-1 ones with input channels a multiple of 16, output channels a multiple of 32 and an
// output of at least 10x10 on the Winograd kernel of ops/conv/winograd_avx512.cpp. Their results
// must match a naive convolution in double precision as closely as a direct sum does: with and
// without bias, a fused residual (in the output's buffer or its own) and Relu, pads of 0 to 2 on
// either side, strides, dilations, odd output sizes (half tiles), channel counts that leave a
// partial block or chunk, batches, and 1 or 2 threads. A 1x1 identity Conv in front makes the
// blocked input without changing a value. Elsewhere (or on other CPUs) the test checks that
// oneDNN's kernel serves. The AVX-512 Winograd kernel serves by default from 10x10 where 512-bit
// multiply-adds run at half rate (Zen 4), from 28x28 elsewhere; each case also runs with
// ASC_CONV_WINOGRAD=1, which takes it from 10x10 on any AVX-512 CPU, so the kernel is checked
// wherever the suite runs.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "asc/ops/kernel.h"
#include "asc/runtime/session.h"
#include "cpu/features.h"

using namespace asc;

namespace {

struct Case {
  int64_t n, c, k, h, w;
  std::vector<int64_t> pads;  // top, left, bottom, right
  bool bias, relu;
  int residual;  // 0 none; 1 a value that dies here (the output may take its buffer); 2 one
                 // that is also a graph output (the kernel reads it from its own buffer)
  int threads;
  int64_t kernel = 3, stride = 1, dilation = 1;
  bool sparse_taps = false;  // larger than 7x7, but most taps read only padding: gemm_conv
};

// ASC_CONV_WINOGRAD=1 for the scope when `forced`, unset otherwise; the old value restored.
class WinogradSwitch {
 public:
  explicit WinogradSwitch(bool forced) {
    if (const char* e = std::getenv(kName)) old_ = e, had_ = true;
    if (forced)
      setenv(kName, "1", 1);
    else
      unsetenv(kName);
  }
  ~WinogradSwitch() {
    if (had_)
      setenv(kName, old_.c_str(), 1);
    else
      unsetenv(kName);
  }

 private:
  static constexpr const char* kName = "ASC_CONV_WINOGRAD";
  std::string old_;
  bool had_ = false;
};

int64_t span(const Case& c) { return (c.kernel - 1) * c.dilation + 1; }
int64_t outH(const Case& c) { return (c.h + c.pads[0] + c.pads[2] - span(c)) / c.stride + 1; }
int64_t outW(const Case& c) { return (c.w + c.pads[1] + c.pads[3] - span(c)) / c.stride + 1; }

std::vector<float> naive(const Case& c, const std::vector<float>& x, const std::vector<float>& w,
                         const std::vector<float>& b, const std::vector<float>& r) {
  const int64_t oh = outH(c), ow = outW(c);
  std::vector<float> y(size_t(c.n * c.k * oh * ow));
  for (int64_t n = 0; n < c.n; ++n)
    for (int64_t o = 0; o < c.k; ++o)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double acc =
              c.bias || c.residual ? b[size_t(o)] : 0.0;  // (build gives a residual a bias)
          for (int64_t ci = 0; ci < c.c; ++ci)
            for (int64_t ki = 0; ki < c.kernel; ++ki)
              for (int64_t kj = 0; kj < c.kernel; ++kj) {
                const int64_t ii = i * c.stride + ki * c.dilation - c.pads[0],
                              jj = j * c.stride + kj * c.dilation - c.pads[1];
                if (ii < 0 || jj < 0 || ii >= c.h || jj >= c.w) continue;
                acc += double(x[size_t(((n * c.c + ci) * c.h + ii) * c.w + jj)]) *
                       w[size_t(((o * c.c + ci) * c.kernel + ki) * c.kernel + kj)];
              }
          const size_t at = size_t(((n * c.k + o) * oh + i) * ow + j);
          if (c.residual) acc += r[at];
          y[at] = float(c.relu ? std::max(0.0, acc) : acc);
        }
  return y;
}

ir::Value* value(ir::Graph& g, const std::string& name, ir::Shape s) {
  ir::Value* v = g.addValue(name);
  v->dtype = ir::DType::F32;
  v->shape = std::move(s);
  return v;
}

// x -> 1x1 identity Conv (blocked out) -> the 3x3 Conv [+ residual] -> y. The residual is the
// graph's input "r" through its own identity Conv (blocked too), and in mode 2 also an output.
ir::Graph build(const Case& c, const std::vector<float>& w, const std::vector<float>& b) {
  ir::Graph g;
  g.opset = 13;
  auto identity = [&](const std::string& name, ir::Value* in, int64_t ch) {
    std::vector<float> eye(size_t(ch * ch), 0.f);
    for (int64_t i = 0; i < ch; ++i) eye[size_t(i * ch + i)] = 1.f;
    ir::Value* e = g.addConstant(
        name + "_w",
        ir::Tensor{ir::DType::F32, {ch, ch, 1, 1}, ir::Blob::copyOf(eye.data(), eye.size() * 4)});
    ir::Value* out = value(g, name + "_y", in->shape);
    g.addNode("Conv", name, {in, e}, {out})->attrs.set("kernel_shape", std::vector<int64_t>{1, 1});
    return out;
  };
  ir::Value* x = value(g, "x", {c.n, c.c, c.h, c.w});
  g.inputs.push_back(x);
  ir::Value* xb = identity("in", x, c.c);
  ir::Value* wv = g.addConstant("w", ir::Tensor{ir::DType::F32,
                                                {c.k, c.c, c.kernel, c.kernel},
                                                ir::Blob::copyOf(w.data(), w.size() * 4)});
  std::vector<ir::Value*> ins = {xb, wv};
  if (c.bias || c.residual)
    ins.push_back(g.addConstant(
        "b", ir::Tensor{ir::DType::F32, {c.k}, ir::Blob::copyOf(b.data(), b.size() * 4)}));
  if (c.residual) {
    ir::Value* r = value(g, "r", {c.n, c.k, outH(c), outW(c)});
    g.inputs.push_back(r);
    ins.push_back(identity("res", r, c.k));
  }
  ir::Value* res = c.residual ? ins.back() : nullptr;
  ir::Value* y = value(g, "y", {c.n, c.k, outH(c), outW(c)});
  ir::Node* conv = g.addNode("Conv", "conv", ins, {y});
  conv->attrs.set("kernel_shape", std::vector<int64_t>{c.kernel, c.kernel});
  conv->attrs.set("pads", c.pads);
  conv->attrs.set("strides", std::vector<int64_t>{c.stride, c.stride});
  conv->attrs.set("dilations", std::vector<int64_t>{c.dilation, c.dilation});
  if (c.relu) conv->attrs.set("activation", std::string("Relu"));
  g.outputs.push_back(y);
  if (c.residual == 2) g.outputs.push_back(res);
  return g;
}

}  // namespace

TEST_CASE("convolutions on the runtime's own kernels match a naive convolution",
          "[runtime][winograd][conv]") {
  const Case c =
      GENERATE(Case{1, 64, 64, 28, 28, {1, 1, 1, 1}, true, true, 0, 2},
               Case{1, 64, 64, 28, 28, {1, 1, 1, 1}, true, true, 1, 2},
               Case{1, 24, 48, 29, 31, {1, 1, 1, 1}, true, false, 0, 2},
               Case{1, 16, 32, 30, 30, {0, 2, 1, 0}, false, false, 0, 1},
               Case{2, 32, 16, 28, 28, {2, 2, 2, 2}, true, true, 2, 2},
               Case{1, 128, 64, 28, 28, {1, 1, 1, 1}, true, true, 0, 1},
               Case{1, 32, 32, 14, 14, {1, 1, 1, 1}, true, true, 0, 2},
               // the matrix-product kernel (an output of at most 7x7; 3x3 and larger ones of
               // at least 64 output channels): not 3x3 -> 32, which stays with oneDNN
               Case{1, 64, 32, 7, 7, {1, 1, 1, 1}, true, true, 0, 2},
               Case{1, 64, 64, 7, 7, {1, 1, 1, 1}, true, true, 0, 2},
               Case{1, 256, 64, 7, 7, {1, 1, 1, 1}, true, true, 0, 2},  // 2 chunks
               Case{1, 32, 80, 14, 14, {1, 1, 1, 1}, true, true, 1, 2, 3, 2},
               Case{2, 24, 64, 9, 9, {2, 2, 2, 2}, false, false, 2, 1, 3, 2, 2},
               Case{1, 16, 64, 6, 5, {0, 1, 2, 0}, true, false, 1, 2, 5},
               Case{1, 8, 64, 3, 3, {1, 1, 1, 1}, true, true, 0, 2, 3},
               Case{1, 16, 16, 7, 7, {0, 0, 0, 0}, true, true, 0, 2, 1},
               Case{1, 64, 32, 14, 14, {0, 0, 0, 0}, true, true, 1, 2, 1, 2},  // 1x1 stride 2
               Case{1, 2048, 32, 7, 7, {0, 0, 0, 0}, false, true, 2, 1, 1},    // 1x1, 2 chunks
               // taps that read only padding (DeepLab's ASPP): classes of outputs by
               // the taps that read inside, one with none (zeros, then the bias)
               Case{1, 64, 32, 14, 14, {12, 12, 12, 12}, true, true, 0, 2, 3, 1, 12, true},
               Case{1, 32, 48, 13, 17, {6, 9, 6, 9}, false, false, 1, 1, 3, 1, 9, true},
               // (on AVX-512 oneDNN's gemm convolution serves this one: its binary
               // post-op gave outputs that read only padding the residual's first
               // element, so the residual is copied in and summed instead)
               Case{1, 16, 32, 6, 6, {4, 4, 4, 4}, true, true, 2, 2, 3, 1, 1, true},
               // AVX-512's Winograd: a batch with a residual that is also an output,
               // half tiles with 128 + 32 output channels, a stride of 2 (direct)
               Case{2, 32, 32, 28, 28, {2, 2, 2, 2}, true, true, 2, 2},
               Case{1, 48, 160, 15, 13, {1, 1, 1, 1}, true, true, 1, 2},
               Case{3, 256, 256, 14, 14, {1, 1, 1, 1}, true, true, 0, 2},
               // AVX2 Winograd in passes over the output channels (U within 1 MiB):
               // 128 + 32 channels, a residual in the output's buffer
               Case{1, 128, 160, 14, 14, {1, 1, 1, 1}, true, true, 1, 2},
               Case{1, 64, 64, 28, 28, {1, 1, 1, 1}, true, true, 0, 2, 3, 2});
  const bool forced = GENERATE(false, true);
  const bool avx512_nhwc = ops::channelsLast() && __builtin_cpu_supports("avx512f");
  if (forced && !avx512_nhwc) return;  // the switch forces the AVX-512 kernel alone
  WinogradSwitch wino_switch(forced);
  INFO("forced " << forced << ", x [" << c.n << "," << c.c << "," << c.h << "," << c.w << "] -> "
                 << c.k << " pads " << c.pads[0] << c.pads[1] << c.pads[2] << c.pads[3]
                 << " residual " << c.residual << " threads " << c.threads << " kernel " << c.kernel
                 << " stride " << c.stride << " dilation " << c.dilation);
  const int64_t oh = outH(c), ow = outW(c);
  std::vector<float> w(size_t(c.k * c.c * c.kernel * c.kernel)), b(size_t(c.k)),
      x(size_t(c.n * c.c * c.h * c.w)), r(size_t(c.n * c.k * oh * ow));
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.05f * std::sin(0.7f * float(i));
  for (size_t i = 0; i < b.size(); ++i) b[i] = 0.1f * std::cos(float(i));
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.31f * float(i) + 1.f);
  for (size_t i = 0; i < r.size(); ++i) r[i] = 0.5f * std::cos(0.17f * float(i));
  runtime::SessionOptions opts;
  opts.threads = c.threads;
  auto s = runtime::Session::fromGraph(build(c, w, b), opts);
  REQUIRE(s.isOk());
  const bool avx2_blocked = !ops::channelsLast() && ops::blockSize() == 8 &&
                            __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  const std::string plan = (*s)->describe();
  INFO(plan);
  const bool wino = plan.find("winograd_2x2_3x3:avx2") != std::string::npos;
  const bool wino512 = plan.find("winograd_2x2_3x3:avx512") != std::string::npos;
  const bool gemm = plan.find("gemm_conv:avx2") != std::string::npos;
  const bool three = c.kernel == 3 && c.stride == 1 && c.dilation == 1;
  const bool narrow_pads = *std::max_element(c.pads.begin(), c.pads.end()) <= 2;
  // The AVX2 Winograd kernel's smallest output: 10x10 on cores with 1 MiB of L2 or more, else
  // 28x28 (winograd_avx2.cpp).
  const int64_t wino_min = sysconf(_SC_LEVEL2_CACHE_SIZE) >= (1L << 20) ? 10 * 10 : 28 * 28;
  CHECK(wino == (avx2_blocked && three && narrow_pads && oh * ow >= wino_min));
  const int64_t wino512_min = forced || cpu::avx512HalfRate() ? 10 * 10 : 28 * 28;
  CHECK(wino512 == (avx512_nhwc && three && narrow_pads && c.c % 16 == 0 && c.k % 32 == 0 &&
                    oh * ow >= wino512_min));
  CHECK(gemm ==
        (avx2_blocked && ((oh * ow <= 7 * 7 && (c.kernel == 1 || c.k >= 64)) || c.sparse_taps)));
  REQUIRE((*s)->setInput(0, x.data(), x.size() * 4).isOk());
  if (c.residual) REQUIRE((*s)->setInput(1, r.data(), r.size() * 4).isOk());
  const auto want = naive(c, x, w, b, r);
  for (int run = 0; run < 2; ++run) {  // the second run must not depend on the first's state
    REQUIRE((*s)->run().isOk());
    const float* got = static_cast<const float*>((*s)->outputData(0));
    REQUIRE((*s)->outputs()[0].bytes == want.size() * 4);
    double worst = 0, largest = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      worst = std::max(worst, double(std::fabs(got[i] - want[i])));
      largest = std::max(largest, double(std::fabs(want[i])));
    }
    INFO("run " << run << ", max |diff| " << worst << ", max |ref| " << largest);
    CHECK(largest > 0.1);
    CHECK(worst <= 2e-5 * largest);
  }
}
