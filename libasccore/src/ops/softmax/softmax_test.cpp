// softmax_test.cpp: Softmax/LogSoftmax axis defaults by opset (1 with 2-D coercion before 13,
// -1 since), canonical attributes and errors; the Hardmax kernel and folding.
#include <catch2/catch.hpp>

#include <cmath>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("Softmax axis default and coerce_2d by opset", "[ops][softmax]") {
  OpTester old("Softmax", 11);
  old.input(DType::F32, {2, 3, 4});
  REQUIRE(old.run().isOk());
  CHECK(old.out().shape == ir::Shape{2, 3, 4});
  CHECK(old.node()->attrs.getInt("axis", -9) == 1);
  CHECK(old.node()->attrs.getInt("coerce_2d", 0) == 1);
  OpTester now("Softmax", 13);
  now.input(DType::F32, {2, 3, 4});
  REQUIRE(now.run().isOk());
  CHECK(now.node()->attrs.getInt("axis", -9) == 2);
  CHECK_FALSE(now.node()->attrs.has("coerce_2d"));
  OpTester ls("LogSoftmax", 13);
  ls.input(DType::F16, {8, 10}).attr("axis", int64_t{0});
  REQUIRE(ls.run().isOk());
  CHECK(ls.out().dtype == DType::F16);
  CHECK(ls.node()->attrs.getInt("axis", -9) == 0);
}

TEST_CASE("Softmax errors", "[ops][softmax]") {
  OpTester a("Softmax");
  a.input(DType::F32, {2, 3}).attr("axis", int64_t{2});
  CHECK(a.run().message().find("axis 2") != std::string::npos);
  OpTester i("LogSoftmax");
  i.input(DType::I32, {2, 3});
  CHECK(i.run().message().find("float") != std::string::npos);
  OpTester s("Softmax");
  s.input(DType::F32, {});
  CHECK(s.run().message().find("rank >= 1") != std::string::npos);
}

TEST_CASE("Hardmax: one-hot of the first maximum, axis by opset", "[ops][softmax]") {
  // [2, 2, 3]
  const std::vector<float> x = {1, 3, 3, 0, 5, 1, 2, 2, 2, -1, 0, 7};
  std::vector<float> last(12, 0.f);  // opset 13: along the last axis (first max wins ties)
  for (int r = 0; r < 4; ++r) {
    int best = 0;
    for (int j = 1; j < 3; ++j)
      if (x[r * 3 + j] > x[r * 3 + best]) best = j;
    last[r * 3 + best] = 1.f;
  }
  OpTester t("Hardmax", 13);
  t.input(DType::F32, {2, 2, 3});
  CHECK(asc::test::runKernel<float>(t, {asc::test::bytesOf(x)}) == last);
  // opset 11, axis 1: the [2, 6] view, one 1 per row of 6.
  std::vector<float> flat(12, 0.f);
  for (int r = 0; r < 2; ++r) {
    int best = 0;
    for (int j = 1; j < 6; ++j)
      if (x[r * 6 + j] > x[r * 6 + best]) best = j;
    flat[r * 6 + best] = 1.f;
  }
  OpTester o("Hardmax", 11);
  o.input(DType::F32, {2, 2, 3});
  CHECK(asc::test::runKernel<float>(o, {asc::test::bytesOf(x)}) == flat);
  OpTester f("Hardmax", 13);
  f.constFloats({1, 4, 2, 4}, {2, 2}).attr("axis", int64_t{0});
  REQUIRE(f.run().isOk());
  REQUIRE(f.out().isConstant());
  CHECK(asc::test::doublesOf(f.out()) == std::vector<double>{0, 1, 1, 0});  // ties: first
}

TEST_CASE("Softmax along contiguous rows matches the definition", "[ops][softmax]") {
  // The own AVX2 rows kernel where the CPU has it (oneDNN's elsewhere): rows with a tail past
  // the 8-wide vectors, masked scores (-inf, -1e9), a large spread, the 2-D view of opset 11, and
  // 1 and 2 threads (one row, one thread: the same bytes either way).
  struct Case {
    int opset;
    ir::Shape shape;
    int64_t axis;  // -1: the op's default
  };
  const Case c = GENERATE(Case{13, {3, 5, 37}, -1}, Case{13, {8, 128, 128}, -1},
                          Case{11, {2, 3, 16}, 1}, Case{13, {64, 300}, -1}, Case{13, {4, 7}, -1});
  int64_t rows = 1, n = 1;
  if (c.opset < 13) {
    for (size_t i = 0; i < c.shape.size(); ++i) (int64_t(i) < c.axis ? rows : n) *= c.shape[i];
  } else {
    n = c.shape.back();
    rows = ir::numElements(c.shape) / n;
  }
  std::vector<float> x(size_t(rows * n));
  for (size_t i = 0; i < x.size(); ++i) x[i] = 6.f * std::sin(0.37f * float(i)) + float(i % 5);
  x[3] = -INFINITY;
  if (x.size() > 20) x[20] = -1e9f;
  if (x.size() > 2 * size_t(n)) x[size_t(n) + 1] = 80.f;  // one term far above the rest
  std::vector<double> want(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    double m = -INFINITY, sum = 0;
    for (int64_t i = 0; i < n; ++i) m = std::max(m, double(x[size_t(r * n + i)]));
    for (int64_t i = 0; i < n; ++i) sum += std::exp(double(x[size_t(r * n + i)]) - m);
    for (int64_t i = 0; i < n; ++i)
      want[size_t(r * n + i)] = std::exp(double(x[size_t(r * n + i)]) - m) / sum;
  }
  std::vector<float> got[2];
  for (int threads = 1; threads <= 2; ++threads) {
    OpTester t("Softmax", c.opset);
    t.input(DType::F32, c.shape);
    if (c.axis >= 0) t.attr("axis", c.axis);
    got[threads - 1] = runKernel<float>(t, {bytesOf(x)}, 0, threads);
    double worst = 0;
    for (size_t i = 0; i < x.size(); ++i)
      worst = std::max(worst, std::fabs(got[threads - 1][i] - want[i]) / (want[i] + 1e-30));
    INFO("rows " << rows << " x " << n << ", " << threads << " threads: worst relative error "
                 << worst);
    CHECK(worst < 2e-6);
    CHECK(got[threads - 1][3] == 0.f);
  }
  CHECK(got[0] == got[1]);
}
