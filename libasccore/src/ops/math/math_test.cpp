// math_test.cpp: the element-wise math ops: each kernel against a naive reference written here
// from the ONNX definitions, dtype rules, and constant folding.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

namespace {

const std::vector<float> kX = {-2.5f, -1.5f, -0.75f, -0.5f, -0.1f, 0.f,
                               0.1f,  0.5f,  0.75f,  1.5f,  2.5f,  3.7f};

void checkFloatOp(const char* op, const std::function<double(double)>& ref,
                  const std::vector<float>& x = kX, ir::Attrs attrs = {}) {
  INFO(op);
  OpTester t(op);
  t.input(DType::F32, {3, static_cast<int64_t>(x.size() / 3)});
  for (const auto& [k, v] : attrs.all()) t.attr(k, v);
  auto got = runKernel<float>(t, {bytesOf(x)});
  REQUIRE(got.size() == x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    INFO("x = " << x[i]);
    const double want = ref(x[i]);
    if (std::isnan(want))
      CHECK(std::isnan(got[i]));
    else
      CHECK(got[i] == Approx(want).epsilon(1e-5).margin(1e-6));
  }
}

}  // namespace

TEST_CASE("float math kernels match their definitions", "[ops][math]") {
  checkFloatOp("Ceil", [](double x) { return std::ceil(x); });
  checkFloatOp("Floor", [](double x) { return std::floor(x); });
  checkFloatOp("Reciprocal", [](double x) { return 1.0 / x; }, {-2.f, -0.5f, 0.25f, 4.f, 8.f, 3.f});
  checkFloatOp("Sin", [](double x) { return std::sin(x); });
  checkFloatOp("Cos", [](double x) { return std::cos(x); });
  checkFloatOp("Tan", [](double x) { return std::tan(x); });
  const std::vector<float> unit = {-0.9f, -0.5f, -0.1f, 0.f, 0.3f, 0.99f};
  checkFloatOp(
      "Asin", [](double x) { return std::asin(x); }, unit);
  checkFloatOp(
      "Acos", [](double x) { return std::acos(x); }, unit);
  checkFloatOp("Atan", [](double x) { return std::atan(x); });
  checkFloatOp("Sinh", [](double x) { return (std::exp(x) - std::exp(-x)) / 2; });
  checkFloatOp("Cosh", [](double x) { return (std::exp(x) + std::exp(-x)) / 2; });
  checkFloatOp("Asinh", [](double x) { return std::log(x + std::sqrt(x * x + 1)); });
  checkFloatOp("Acosh", [](double x) { return std::log(x + std::sqrt(x * x - 1)); },
               {1.f, 1.5f, 2.f, 3.f, 10.f, 100.f});
  checkFloatOp(
      "Atanh", [](double x) { return 0.5 * std::log((1 + x) / (1 - x)); }, unit);
  checkFloatOp("Softsign", [](double x) { return x / (1 + std::fabs(x)); });
  checkFloatOp("Softplus", [](double x) { return std::log(1 + std::exp(x)); });
  checkFloatOp("Softplus", [](double x) { return std::log(1 + std::exp(x)); },
               {-100.f, -30.f, 30.f, 100.f, 0.f, 1.f});  // no overflow, no loss
  checkFloatOp("Elu", [](double x) { return x >= 0 ? x : std::exp(x) - 1; });
  ir::Attrs elu;
  elu.set("alpha", 2.f);
  checkFloatOp(
      "Elu", [](double x) { return x >= 0 ? x : 2 * (std::exp(x) - 1); }, kX, elu);
  checkFloatOp("Celu", [](double x) { return std::max(0.0, x) + std::min(0.0, std::exp(x) - 1); });
  ir::Attrs celu;
  celu.set("alpha", 2.f);
  checkFloatOp(
      "Celu", [](double x) { return std::max(0.0, x) + std::min(0.0, 2 * (std::exp(x / 2) - 1)); },
      kX, celu);
  const double a = 1.67326319217681884765625, g = 1.05070102214813232421875;
  checkFloatOp("Selu", [a, g](double x) { return x > 0 ? g * x : g * (a * std::exp(x) - a); });
  checkFloatOp("ThresholdedRelu", [](double x) { return x > 1 ? x : 0; });
  ir::Attrs thr;
  thr.set("alpha", 0.5f);
  checkFloatOp(
      "ThresholdedRelu", [](double x) { return x > 0.5 ? x : 0; }, kX, thr);
  checkFloatOp("Shrink", [](double x) { return x < -0.5 ? x : x > 0.5 ? x : 0; });
  ir::Attrs shr;
  shr.set("lambd", 1.f);
  shr.set("bias", 0.25f);
  checkFloatOp(
      "Shrink", [](double x) { return x < -1  ? x + 0.25
                                      : x > 1 ? x - 0.25
                                              : 0; }, kX, shr);
}

TEST_CASE("Mish (opset 18) and BitwiseNot", "[ops][math]") {
  auto mish = [](double x) { return x * std::tanh(std::log1p(std::exp(x))); };
  checkFloatOp("Mish", mish);
  checkFloatOp("Mish", mish, {-100.f, -30.f, 30.f, 100.f, 0.f, 1.f});  // no overflow
  const std::vector<int32_t> xi = {0, -1, 5, std::numeric_limits<int32_t>::min()};
  OpTester n("BitwiseNot");
  n.input(DType::I32, {4});
  CHECK(runKernel<int32_t>(n, {bytesOf(xi)}) ==
        std::vector<int32_t>{-1, 0, -6, std::numeric_limits<int32_t>::max()});
  const std::vector<uint8_t> xu = {0, 0x0F, 0xFF};
  OpTester nu("BitwiseNot");
  nu.input(DType::U8, {3});
  CHECK(runKernel<uint8_t>(nu, {bytesOf(xu)}) == std::vector<uint8_t>{0xFF, 0xF0, 0});
  OpTester nf("BitwiseNot");
  nf.input(DType::F32, {3});
  CHECK_FALSE(nf.run().isOk());
}

TEST_CASE("Round halves to even", "[ops][math]") {
  checkFloatOp("Round",
               [](double x) {
                 double f = std::floor(x), d = x - f;
                 if (d > 0.5) return f + 1;
                 if (d < 0.5) return f;
                 return std::fmod(f, 2.0) == 0 ? f : f + 1;
               },
               {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 0.4f, 0.6f, -0.6f, 1.2f, 2.51f, -3.49f});
}

TEST_CASE("Abs, Neg and Sign on integers and floats", "[ops][math]") {
  const std::vector<int32_t> xi = {-7, -1, 0, 1, 9, std::numeric_limits<int32_t>::max()};
  for (const char* op : {"Abs", "Neg", "Sign"}) {
    INFO(op);
    OpTester t(op);
    t.input(DType::I32, {6});
    auto got = runKernel<int32_t>(t, {bytesOf(xi)});
    for (size_t i = 0; i < xi.size(); ++i) {
      const int32_t x = xi[i];
      const int32_t want = op[0] == 'A' ? (x < 0 ? -x : x) : op[0] == 'N' ? -x : (x > 0) - (x < 0);
      CHECK(got[i] == want);
    }
  }
  const std::vector<int8_t> x8 = {-128, -3, 0, 5};
  OpTester a8("Abs");
  a8.input(DType::I8, {4});
  CHECK(runKernel<int8_t>(a8, {bytesOf(x8)}) == std::vector<int8_t>{-128, 3, 0, 5});  // wraps
  const std::vector<uint16_t> xu = {0, 7, 65535};
  OpTester su("Sign");
  su.input(DType::U16, {3});
  CHECK(runKernel<uint16_t>(su, {bytesOf(xu)}) == std::vector<uint16_t>{0, 1, 1});
  checkFloatOp("Abs", [](double x) { return std::fabs(x); });
  checkFloatOp("Neg", [](double x) { return -x; });
  checkFloatOp("Sign", [](double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; });
  const std::vector<double> xd = {-1.25, 0, 3.5};
  OpTester nd("Neg");
  nd.input(DType::F64, {3});
  CHECK(runKernel<double>(nd, {bytesOf(xd)}) == std::vector<double>{1.25, 0, -3.5});
}

TEST_CASE("IsNaN, IsInf and Not give bools", "[ops][math]") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {1.f, -inf, inf, nan, 0.f, -2.f};
  OpTester n("IsNaN");
  n.input(DType::F32, {6});
  CHECK(runKernel<uint8_t>(n, {bytesOf(x)}) == std::vector<uint8_t>{0, 0, 0, 1, 0, 0});
  OpTester i("IsInf");
  i.input(DType::F32, {6});
  CHECK(runKernel<uint8_t>(i, {bytesOf(x)}) == std::vector<uint8_t>{0, 1, 1, 0, 0, 0});
  OpTester ip("IsInf");
  ip.input(DType::F32, {6}).attr("detect_negative", int64_t{0});
  CHECK(runKernel<uint8_t>(ip, {bytesOf(x)}) == std::vector<uint8_t>{0, 0, 1, 0, 0, 0});
  OpTester in("IsInf");
  in.input(DType::F32, {6}).attr("detect_positive", int64_t{0});
  CHECK(runKernel<uint8_t>(in, {bytesOf(x)}) == std::vector<uint8_t>{0, 1, 0, 0, 0, 0});
  OpTester nt("Not");
  nt.input(DType::Bool, {2, 2});
  CHECK(runKernel<uint8_t>(nt, {bytesOf(std::vector<uint8_t>{1, 0, 0, 1})}) ==
        std::vector<uint8_t>{0, 1, 1, 0});
}

TEST_CASE("math ops check dtypes and fold", "[ops][math]") {
  OpTester s("Sin");
  s.input(DType::I32, {2});
  CHECK(mentions(s.run(), "float"));
  OpTester a("Abs");
  a.input(DType::Bool, {2});
  CHECK(mentions(a.run(), "bool"));
  OpTester n("Not");
  n.input(DType::F32, {2});
  CHECK(mentions(n.run(), "bool"));
  OpTester p("IsNaN");
  p.input(DType::F16, {2, 3});
  REQUIRE(p.run().isOk());
  CHECK(p.out().dtype == DType::Bool);
  CHECK(p.out().shape == ir::Shape{2, 3});

  OpTester f("Neg");
  f.constInts({3, -4});
  REQUIRE(f.run().isOk());
  REQUIRE(f.out().isConstant());
  CHECK(f.out().tensor().intAt(0) == -3);
  CHECK(f.out().tensor().intAt(1) == 4);
  OpTester c("Ceil");
  c.constFloats({1.2f, -1.2f}, {2});
  REQUIRE(c.run().isOk());
  REQUIRE(c.out().isConstant());
  CHECK(asc::test::doublesOf(c.out()) == std::vector<double>{2.0, -1.0});
}
