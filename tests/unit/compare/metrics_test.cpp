// metrics_test.cpp: the ten metrics against hand-computed values, their edge cases (zeros,
// scalars, NaN/Inf, bool), the tolerance verdict, and independence from chunking and threads.
#include "asc/compare/metrics.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "asc/support/fp16.h"

using namespace asc;
using namespace asc::compare;

namespace {

TensorView view(const std::vector<float>& v) {
  TensorView t;
  t.dtype = ir::DType::F32;
  t.data = reinterpret_cast<const uint8_t*>(v.data());
  t.count = v.size();
  return t;
}

CompareResult run(const std::vector<float>& x, const std::vector<float>& y, Tolerance tol = {},
                  uint64_t window = 0) {
  CompareOptions o;
  o.window_elements = window;
  o.tolerance = tol;
  o.my_name = "my.npy";
  o.golden_name = "golden.npy";
  auto r = compareTensors(view(x), view(y), o);
  REQUIRE(r.isOk());
  return *r;
}

const std::string& cell(const CompareResult& r, Metric m) { return r.text[static_cast<int>(m)]; }

}  // namespace

TEST_CASE("metric names, order and parsing", "[compare]") {
  CHECK(std::string(metricName(Metric::CosineSimilarity)) == "CosineSimilarity");
  CHECK(std::string(metricName(Metric::MeanRelativeError)) == "MeanRelativeError");
  CHECK(*parseMetric("cosine_similarity") == Metric::CosineSimilarity);
  CHECK(*parseMetric("KullbackLeiblerDivergence") == Metric::KullbackLeiblerDivergence);
  CHECK(*parseMetric("9") == Metric::MeanRelativeError);
  CHECK(parseMetric("cosine").status().code() == ErrorCode::InvalidParam);
  auto all = parseMetricList("all");
  REQUIRE(all.isOk());
  CHECK(all->size() == 10);
  auto two = parseMetricList("max_absolute_error,0");
  REQUIRE(two.isOk());
  CHECK((*two == std::vector<Metric>{Metric::CosineSimilarity, Metric::MaxAbsoluteError}));
}

TEST_CASE("metrics match hand-computed values", "[compare]") {
  std::vector<float> x = {1, 2, 3, 4}, y = {1, 2, 3, 5};
  auto r = run(x, y);
  // cos = (1+4+9+20) / (sqrt(30) sqrt(39))
  CHECK(cell(r, Metric::CosineSimilarity) == fmt::format("{:.6f}", 34 / std::sqrt(30.0 * 39.0)));
  CHECK(cell(r, Metric::MaxAbsoluteError) == "1.000000");
  CHECK(cell(r, Metric::AccumulatedRelativeError) == "0.200000");
  CHECK(cell(r, Metric::RelativeEuclideanDistance) == fmt::format("{:.6f}", std::sqrt(1 / 39.0)));
  CHECK(cell(r, Metric::MeanAbsoluteError) == "0.250000");
  CHECK(cell(r, Metric::RootMeanSquareError) == "0.500000");
  CHECK(cell(r, Metric::MaxRelativeError) == "0.200000");
  CHECK(cell(r, Metric::MeanRelativeError) == "0.050000");
  CHECK(cell(r, Metric::StandardDeviation) == "(2.500;1.118),(2.750;1.479)");
  CHECK(r.violations == 1);
  CHECK(r.first_violation == 3);
}

TEST_CASE("identical tensors: cosine 1, errors 0, KLD 0", "[compare]") {
  std::vector<float> x = {0.5f, -1, 2, 7};
  auto r = run(x, x);
  CHECK(cell(r, Metric::CosineSimilarity) == "1.000000");
  CHECK(cell(r, Metric::KullbackLeiblerDivergence) == "0.000000");
  CHECK(cell(r, Metric::MaxAbsoluteError) == "0.000000");
  CHECK(r.passed());
  CHECK(r.fail_reason.empty());
}

TEST_CASE("zero sides and scalars follow msaccucmp's rules", "[compare]") {
  auto both = run({0, 0, 0}, {0, 0, 0});
  CHECK(cell(both, Metric::CosineSimilarity) == "1.0");
  CHECK(cell(both, Metric::RelativeEuclideanDistance) == "0.000000");
  auto one = run({0, 0, 0}, {1, 2, 3});
  CHECK(cell(one, Metric::CosineSimilarity) == "NaN");
  CHECK(one.fail_reason.find("All the data is zero in my.npy") != std::string::npos);
  auto scalar = run({3}, {4});
  CHECK(cell(scalar, Metric::CosineSimilarity) == "1.000000");
  CHECK(scalar.fail_reason.find("This tensor is scalar.") != std::string::npos);
}

TEST_CASE("NaN and Inf are counted per side and propagate", "[compare]") {
  const float nan = std::nanf(""), inf = INFINITY;
  auto r = run({1, nan, inf, 4}, {1, 2, 3, -inf});
  CHECK(r.my.nan == 1);
  CHECK(r.my.pos_inf == 1);
  CHECK(r.golden.neg_inf == 1);
  CHECK(cell(r, Metric::MaxAbsoluteError) == "NaN");
  CHECK(cell(r, Metric::KullbackLeiblerDivergence) == "NaN");
  CHECK(r.violations == 3);
  CHECK(std::isnan(r.max_violation_diff));
  // equal infinities pass the verdict
  auto eq = run({inf, 1}, {inf, 1});
  CHECK(eq.violations == 0);
}

TEST_CASE("equal_nan: NaN on both sides passes the verdict, NaN on one side does not",
          "[compare]") {
  const float nan = std::nanf("");
  // 9 elements: the vector loop takes 8, the scalar tail the last (a NaN pair in each part)
  std::vector<float> x = {1, nan, 3, 4, 5, 6, 7, 8, nan}, y = x;
  CHECK(run(x, y, {0, 0}).violations == 2);  // msaccucmp's rule: NaN never passes
  Tolerance eq{0, 0};
  eq.equal_nan = true;
  auto r = run(x, y, eq);
  CHECK(r.passed());
  CHECK(r.my.nan == 2);
  y[3] = nan;  // NaN on one side still fails, and is the first violation
  x[5] = 6.5f;
  r = run(x, y, eq);
  CHECK(r.violations == 2);
  CHECK(r.first_violation == 3);
  CHECK(std::isnan(r.max_violation_diff));
  y[3] = 4;  // a finite violation alone: its difference, not NaN
  r = run(x, y, eq);
  CHECK(r.violations == 1);
  CHECK(r.first_violation == 5);
  CHECK(r.max_violation_diff == 0.5);
}

TEST_CASE("the verdict is |x - y| <= atol + rtol * |y|", "[compare]") {
  auto r = run({1.0f, 100.5f}, {1.0f, 100.0f}, {0.0, 0.004});
  CHECK(r.violations == 1);
  auto ok = run({1.0f, 100.5f}, {1.0f, 100.0f}, {0.0, 0.006});
  CHECK(ok.passed());
  CHECK(defaultTolerance(ir::DType::F16).atol == 1e-3);
  CHECK(defaultTolerance(ir::DType::I32).atol == 0);
  CHECK(lessPrecise(ir::DType::F32, ir::DType::F16) == ir::DType::F16);
}

TEST_CASE("length mismatch is an error naming both files", "[compare]") {
  std::vector<float> x = {1, 2, 3}, y = {1, 2};
  CompareOptions o;
  o.my_name = "a.bin";
  o.golden_name = "b.npy";
  auto r = compareTensors(view(x), view(y), o);
  REQUIRE_FALSE(r.isOk());
  CHECK(r.status().code() == ErrorCode::InvalidParam);
  CHECK(r.status().message().find("a.bin has 3 elements, b.npy has 2") != std::string::npos);
}

TEST_CASE("fp16, int and bool sides read as numbers", "[compare]") {
  std::vector<uint16_t> h = {floatToHalf(1.5f), floatToHalf(-2.0f)};
  std::vector<int32_t> i = {1, -2};
  TensorView a{ir::DType::F16, reinterpret_cast<const uint8_t*>(h.data()), 2};
  TensorView b{ir::DType::I32, reinterpret_cast<const uint8_t*>(i.data()), 2};
  auto r = compareTensors(a, b, {});
  REQUIRE(r.isOk());
  CHECK(cell(*r, Metric::MaxAbsoluteError) == "0.500000");
  std::vector<uint8_t> bools = {1, 0, 1};
  TensorView c{ir::DType::Bool, bools.data(), 3};
  auto rb = compareTensors(c, c, {});
  REQUIRE(rb.isOk());
  CHECK(cell(*rb, Metric::CosineSimilarity) == "1.000000");
  CHECK(cell(*rb, Metric::MaxAbsoluteError) == "NaN");  // bool: cosine and RED only
}

TEST_CASE("big-endian data is swapped per chunk", "[compare]") {
  std::vector<float> x = {1.25f, -3.5f};
  std::vector<uint8_t> be(8);
  for (int k = 0; k < 2; ++k)
    for (int b = 0; b < 4; ++b) be[k * 4 + b] = reinterpret_cast<const uint8_t*>(&x[k])[3 - b];
  TensorView a{ir::DType::F32, be.data(), 2, /*big_endian=*/true};
  auto r = compareTensors(a, view(x), {});
  REQUIRE(r.isOk());
  CHECK(r->passed());
  CHECK(cell(*r, Metric::MaxAbsoluteError) == "0.000000");
}

TEST_CASE("large tensors: many windows give the same sums as a double loop", "[compare]") {
  const size_t n = (size_t(1) << 22) + 12345;  // more than one window, a ragged last chunk
  std::vector<float> x(n), y(n);
  std::mt19937 rng(7);
  std::normal_distribution<float> d(0.f, 1.f);
  double sabs = 0, sdd = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    x[i] = d(rng);
    y[i] = x[i] + 0.01f * d(rng);
    sabs += std::fabs(double(x[i]) - y[i]);
    sdd += (double(x[i]) - y[i]) * (double(x[i]) - y[i]);
    syy += double(y[i]) * y[i];
  }
  auto r = run(x, y);
  CHECK(cell(r, Metric::MeanAbsoluteError) == fmt::format("{:.6f}", sabs / n));
  CHECK(cell(r, Metric::RelativeEuclideanDistance) == fmt::format("{:.6f}", std::sqrt(sdd / syy)));
  CHECK(r.count == n);
  // Small windows (many parallel regions, many merges) give the same cells.
  auto w = run(x, y, {}, 100000);
  for (int m = 0; m < kMetricCount; ++m) CHECK(w.text[m] == r.text[m]);
  x[3000000] += 1.0f;
  auto v = run(x, y, {0.5, 0}, 100000);
  CHECK(v.violations == 1);
  CHECK(v.first_violation == 3000000);
}

namespace {
template <typename T>
TensorView intView(const std::vector<T>& v, ir::DType t) {
  TensorView tv;
  tv.dtype = t;
  tv.data = reinterpret_cast<const uint8_t*>(v.data());
  tv.count = v.size();
  return tv;
}
template <typename A, typename B>
CompareResult runExact(const std::vector<A>& x, ir::DType tx, const std::vector<B>& y, ir::DType ty,
                       Tolerance tol = {}) {
  CompareOptions o;
  o.tolerance = tol;
  o.window_elements = 8192;  // several chunks for the longer cases
  auto r = compareTensors(intView(x, tx), intView(y, ty), o);
  REQUIRE(r.isOk());
  return *r;
}
}  // namespace

TEST_CASE("integers compare exactly at every dtype's extremes, never through double",
          "[compare][exact]") {
  using ir::DType;
  const int64_t p60 = int64_t(1) << 60;
  SECTION("int64 near 2^60 and 2^63") {
    // 2^60 and 2^60 + 1 are the same double: they once compared equal.
    auto r = runExact<int64_t, int64_t>({p60, 5, -7}, DType::I64, {p60 + 1, 5, -7}, DType::I64);
    CHECK_FALSE(r.passed());
    CHECK(r.violations == 1);
    CHECK(r.first_violation == 0);
    CHECK(cell(r, Metric::MaxAbsoluteError) == "1.000000");
    CHECK(r.max_violation_diff == 1.0);
    const int64_t mx = std::numeric_limits<int64_t>::max(),
                  mn = std::numeric_limits<int64_t>::min();
    auto top = runExact<int64_t, int64_t>({mx, mn}, DType::I64, {mx - 1, mn + 1}, DType::I64);
    CHECK(top.violations == 2);
    auto same = runExact<int64_t, int64_t>({mx, mn, 0}, DType::I64, {mx, mn, 0}, DType::I64);
    CHECK(same.passed());
    CHECK(cell(same, Metric::MaxAbsoluteError) == "0.000000");
    // The widest difference (2^64 - 1) does not wrap to a small one.
    auto wide = runExact<int64_t, int64_t>({mx}, DType::I64, {mn}, DType::I64);
    CHECK(wide.value[static_cast<int>(Metric::MaxAbsoluteError)] == Approx(18446744073709551615.0));
  }
  SECTION("uint64 near 2^64, against int64") {
    const uint64_t um = std::numeric_limits<uint64_t>::max();
    auto r = runExact<uint64_t, uint64_t>({um, um - 1}, DType::U64, {um - 1, um - 1}, DType::U64);
    CHECK(r.violations == 1);
    CHECK(r.first_violation == 0);
    CHECK(cell(r, Metric::MaxAbsoluteError) == "1.000000");
    // uint64 2^63 is not int64 -2^63 (the same bits).
    auto mixed = runExact<uint64_t, int64_t>({uint64_t(1) << 63}, DType::U64,
                                             {std::numeric_limits<int64_t>::min()}, DType::I64);
    CHECK(mixed.violations == 1);
  }
  SECTION("int8 at -128, int32, bool") {
    auto r = runExact<int8_t, int8_t>({-128, 127, 0}, DType::I8, {-128, 127, 1}, DType::I8);
    CHECK(r.violations == 1);
    CHECK(r.first_violation == 2);
    auto i32 = runExact<int32_t, int32_t>({INT32_MIN, INT32_MAX}, DType::I32,
                                          {INT32_MIN, INT32_MAX}, DType::I32);
    CHECK(i32.passed());
    std::vector<uint8_t> a = {1, 0, 1}, b = {1, 0, 0};
    auto bl = runExact<uint8_t, uint8_t>(a, DType::Bool, b, DType::Bool);
    CHECK(bl.violations == 1);
    CHECK(bl.first_violation == 2);
  }
  SECTION("a long run: the mismatch in the last chunk is found, sums exact") {
    std::vector<int64_t> x(20000, p60), y(20000, p60);
    y.back() = p60 + 3;
    auto r = runExact<int64_t, int64_t>(x, DType::I64, y, DType::I64);
    CHECK(r.violations == 1);
    CHECK(r.first_violation == 19999);
    CHECK(cell(r, Metric::MaxAbsoluteError) == "3.000000");
    CHECK(r.value[static_cast<int>(Metric::MeanAbsoluteError)] == Approx(3.0 / 20000));
  }
  SECTION("a tolerance given for integers still applies, exactly") {
    auto r = runExact<int64_t, int64_t>({p60 + 2, 10}, DType::I64, {p60, 10}, DType::I64,
                                        Tolerance{2, 0});
    CHECK(r.passed());
    auto r3 = runExact<int64_t, int64_t>({p60 + 3, 10}, DType::I64, {p60, 10}, DType::I64,
                                         Tolerance{2, 0});
    CHECK(r3.violations == 1);
  }
}
