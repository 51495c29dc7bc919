// avx2_gemm_test.cpp: where oneDNN's kernels stop below AVX-512 (an AVX2 CPU, or
// ONEDNN_MAX_CPU_ISA=AVX2), MatMul and Gemm with constant weights run on the runtime's own GEMM
// (ops/matmul/gemm_avx2.cpp); with AVX-512 it serves products of at most 4 rows. Its
// results must match a naive product in double precision as closely as a plain fp32 sum does:
// row counts below, at and above the 6-row block, sums shorter and longer than its 256-slice
// and not a multiple of 8, column counts that leave a padded last panel (24, 1000), a fused
// bias and Relu, B stored transposed (transpose_x2), A with a batch dim folded into its rows,
// 1 or 2 threads, and Gemm with transB and a C row (a classifier's last layer at batch 1 and
// 3). Elsewhere oneDNN's matmul must serve.
#include <catch2/catch.hpp>

#include <cmath>

#include "asc/ops/kernel.h"
#include "asc/runtime/session.h"

using namespace asc;

namespace {

struct Case {
  int64_t batch, m, k, n;
  bool bias, relu, transposed;
  int threads;
  bool gemm_op = false;  // ONNX Gemm (transB, C as the bias) instead of MatMul
};

}  // namespace

TEST_CASE("MatMul and Gemm on the runtime's AVX2 GEMM match a naive product", "[runtime][gemm]") {
  const Case c = GENERATE(
      Case{1, 1, 7, 16, false, false, false, 2}, Case{1, 6, 256, 32, true, false, false, 2},
      Case{1, 13, 300, 48, true, true, false, 1}, Case{2, 64, 520, 256, true, true, true, 2},
      Case{1, 128, 64, 1024, false, true, true, 2},
      Case{1, 5, 33, 24, true, false, false, 2},           // 24: not a multiple of 16
      Case{1, 1, 2048, 1000, true, false, true, 2, true},  // ResNet's FC: 62 panels + 8
      Case{1, 3, 300, 40, true, true, false, 2, true}, Case{1, 2, 70, 8, false, false, false, 1},
      Case{1, 128, 256, 256, true, false, true, 2, true},
      Case{1, 7, 40, 32, false, true, false, 1, true});
  INFO((c.gemm_op ? "Gemm " : "MatMul ")
       << "[" << c.batch << "," << c.m << "," << c.k << "] x [" << c.k << "," << c.n << "] bias "
       << c.bias << " relu " << c.relu << " transposed " << c.transposed << " threads "
       << c.threads);
  std::vector<float> a(size_t(c.batch * c.m * c.k)), w(size_t(c.k * c.n)), b(size_t(c.n));
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.37f * float(i) + 0.2f) + 0.5f;
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.1f * std::cos(0.61f * float(i)) + 0.03f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = 0.05f * float(int(i % 7) - 3);
  // w is B [k, n]; stored transposed it is [n, k].
  std::vector<float> stored = w;
  if (c.transposed)
    for (int64_t i = 0; i < c.k; ++i)
      for (int64_t j = 0; j < c.n; ++j) stored[size_t(j * c.k + i)] = w[size_t(i * c.n + j)];
  ir::Graph g;
  g.opset = 13;
  ir::Value* av = g.addValue("a");
  av->dtype = ir::DType::F32;
  av->shape = c.batch > 1 ? ir::Shape{c.batch, c.m, c.k} : ir::Shape{c.m, c.k};
  g.inputs.push_back(av);
  ir::Value* wv = g.addConstant(
      "w", ir::Tensor{ir::DType::F32, c.transposed ? ir::Shape{c.n, c.k} : ir::Shape{c.k, c.n},
                      ir::Blob::copyOf(stored.data(), stored.size() * 4)});
  std::vector<ir::Value*> ins = {av, wv};
  if (c.bias)
    ins.push_back(g.addConstant(
        "b", ir::Tensor{ir::DType::F32, {c.n}, ir::Blob::copyOf(b.data(), b.size() * 4)}));
  ir::Value* y = g.addValue("y");
  y->dtype = ir::DType::F32;
  y->shape = c.batch > 1 ? ir::Shape{c.batch, c.m, c.n} : ir::Shape{c.m, c.n};
  ir::Node* mm = g.addNode(c.gemm_op ? "Gemm" : "MatMul", "mm", ins, {y});
  if (c.transposed) mm->attrs.set(c.gemm_op ? "transB" : "transpose_x2", int64_t(1));
  if (c.relu) mm->attrs.set("activation", std::string("Relu"));
  g.outputs.push_back(y);
  runtime::SessionOptions opts;
  opts.threads = c.threads;
  auto s = runtime::Session::fromGraph(std::move(g), opts);
  REQUIRE(s.isOk());
  const bool own_expected = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                            (!ops::channelsLast() || c.batch * c.m <= 4);
  CHECK(((*s)->describe().find("gemm:avx2:own") != std::string::npos) == own_expected);
  REQUIRE((*s)->setInput(0, a.data(), a.size() * 4).isOk());
  const int64_t rows = c.batch * c.m;
  std::vector<float> want(size_t(rows * c.n));
  double largest = 0;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < c.n; ++j) {
      double acc = c.bias ? b[size_t(j)] : 0.0;
      for (int64_t q = 0; q < c.k; ++q)
        acc += double(a[size_t(i * c.k + q)]) * w[size_t(q * c.n + j)];
      if (c.relu) acc = std::max(0.0, acc);
      want[size_t(i * c.n + j)] = float(acc);
      largest = std::max(largest, std::fabs(acc));
    }
  for (int run = 0; run < 2; ++run) {
    REQUIRE((*s)->run().isOk());
    REQUIRE((*s)->outputs()[0].bytes == want.size() * 4);
    const float* got = static_cast<const float*>((*s)->outputData(0));
    double worst = 0;
    for (size_t i = 0; i < want.size(); ++i)
      worst = std::max(worst, double(std::fabs(got[i] - want[i])));
    INFO("run " << run << " max |diff| " << worst << " max |ref| " << largest);
    CHECK(largest > 0.1);
    CHECK(worst <= 1e-5 * std::max(1.0, largest));
  }
}
