// binary_test.cpp: broadcasting shapes and dtypes of the element-wise binary and variadic ops,
// their constant folding (integer Div truncates toward zero) and the legacy broadcast attrs;
// the comparison, logic, BitShift and Mod kernels against a naive reference.
#include <catch2/catch.hpp>

#include <cmath>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("Add/Sub/Mul/Div/Pow broadcast", "[ops][binary]") {
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow"}) {
    INFO(op);
    OpTester t(op);
    t.input(DType::F32, {2, 1, 4}).input(DType::F32, {3, 1});
    REQUIRE(t.run().isOk());
    CHECK(t.out().shape == ir::Shape{2, 3, 4});
    CHECK(t.out().dtype == DType::F32);
    CHECK(ops::nodeFlops(*t.node()) == 24);
    OpTester bad(op);
    bad.input(DType::F32, {2, 3}).input(DType::F32, {4});
    CHECK(mentions(bad.run(), "broadcast"));
  }
  OpTester mixed("Add");
  mixed.input(DType::F32, {2}).input(DType::F16, {2});
  CHECK(mentions(mixed.run(), "dtype"));
  OpTester pw("Pow");  // the exponent may have its own dtype
  pw.input(DType::F32, {2}).input(DType::I64, {});
  REQUIRE(pw.run().isOk());
  CHECK(pw.out().dtype == DType::F32);
}

TEST_CASE("arithmetic folds; integer Div truncates toward zero", "[ops][binary]") {
  OpTester a("Add");
  a.constInts({1, 2, 3}).constInts({10}, {});
  REQUIRE(a.run().isOk());
  REQUIRE(a.out().isConstant());
  CHECK(a.out().tensor().toInts() == Ints{11, 12, 13});
  OpTester s("Sub");
  s.constInts({5, 5}).constInts({7, 1});
  REQUIRE(s.run().isOk());
  CHECK(s.out().tensor().toInts() == Ints{-2, 4});
  OpTester m("Mul");
  m.constFloats({1.5f, 2.f}, {2}).constFloats({2.f}, {1});
  REQUIRE(m.run().isOk());
  CHECK(doublesOf(m.out()) == std::vector<double>{3.0, 4.0});
  OpTester d("Div");
  d.constInts({7, -7, 7, -7}).constInts({2, 2, -2, -2});
  REQUIRE(d.run().isOk());
  CHECK(d.out().tensor().toInts() == Ints{3, -3, -3, 3});
  OpTester df("Div");
  df.constFloats({7.f}, {1}).constFloats({2.f}, {1});
  REQUIRE(df.run().isOk());
  CHECK(doublesOf(df.out()) == std::vector<double>{3.5});
  OpTester z("Div");
  z.constInts({1}).constInts({0});
  CHECK(mentions(z.run(), "division by zero"));
  OpTester p("Pow");
  p.constInts({2, 3, -2}).constInts({3, 0, 3});
  REQUIRE(p.run().isOk());
  CHECK(p.out().tensor().toInts() == Ints{8, 1, -8});
  OpTester pf("Pow");
  pf.constFloats({4.f, 9.f}, {2}).constFloats({0.5f}, {});
  REQUIRE(pf.run().isOk());
  CHECK(doublesOf(pf.out()) == std::vector<double>{2.0, 3.0});
}

TEST_CASE("Equal gives bool and folds", "[ops][binary]") {
  OpTester t("Equal");
  t.input(DType::I64, {3, 1}).input(DType::I64, {4});
  REQUIRE(t.run().isOk());
  CHECK(t.out().dtype == DType::Bool);
  CHECK(t.out().shape == ir::Shape{3, 4});
  OpTester c("Equal");
  c.constInts({1, 2, 3}).constInts({1, 0, 3});
  REQUIRE(c.run().isOk());
  CHECK(c.out().dtype == DType::Bool);
  CHECK(c.out().tensor().toInts() == Ints{1, 0, 1});
  OpTester mixed("Equal");
  mixed.input(DType::I64, {3}).input(DType::I32, {3});
  CHECK(mentions(mixed.run(), "dtype"));
}

TEST_CASE("Sum/Max/Min are variadic and fold", "[ops][binary]") {
  OpTester s("Sum");
  s.input(DType::F32, {2, 3}).input(DType::F32, {3}).input(DType::F32, {1, 1});
  REQUIRE(s.run().isOk());
  CHECK(s.out().shape == ir::Shape{2, 3});
  CHECK(ops::nodeFlops(*s.node()) == 12);
  OpTester one("Sum");
  one.input(DType::F32, {5});
  REQUIRE(one.run().isOk());
  CHECK(one.out().shape == ir::Shape{5});
  OpTester sc("Sum");
  sc.constInts({1, 2}).constInts({10, 20}).constInts({100}, {1});
  REQUIRE(sc.run().isOk());
  CHECK(sc.out().tensor().toInts() == Ints{111, 122});
  OpTester mx("Max");
  mx.constInts({1, 5, 3}).constInts({4, 2, 3}).constInts({0}, {});
  REQUIRE(mx.run().isOk());
  CHECK(mx.out().tensor().toInts() == Ints{4, 5, 3});
  OpTester mn("Min");
  mn.constFloats({1.f, 5.f}, {2}).constFloats({4.f, -2.f}, {2});
  REQUIRE(mn.run().isOk());
  CHECK(doublesOf(mn.out()) == std::vector<double>{1.0, -2.0});
  OpTester bad("Max");
  bad.input(DType::F32, {2}).input(DType::F32, {3});
  CHECK(mentions(bad.run(), "broadcast"));
  OpTester gap("Sum");
  gap.input(DType::F32, {2}).none().input(DType::F32, {2});
  CHECK(mentions(gap.run(), "omitted"));
}

TEST_CASE("Where: bool condition, dtype of x, folds", "[ops][binary]") {
  OpTester t("Where");
  t.input(DType::Bool, {2, 1}).input(DType::F16, {3}).input(DType::F16, {2, 3});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{2, 3});
  CHECK(t.out().dtype == DType::F16);
  OpTester c("Where");
  c.input(DType::F32, {2}).input(DType::F32, {2}).input(DType::F32, {2});
  CHECK(mentions(c.run(), "bool"));
  OpTester m("Where");
  m.input(DType::Bool, {2}).input(DType::F32, {2}).input(DType::I64, {2});
  CHECK(mentions(m.run(), "dtype"));
  uint8_t cond[] = {1, 0, 1};
  OpTester f("Where");
  f.constant(DType::Bool, {3}, cond, 3).constInts({1, 2, 3}).constInts({-1}, {});
  REQUIRE(f.run().isOk());
  CHECK(f.out().tensor().toInts() == Ints{1, -1, 3});
  // The opset an op exists from is checked by the ONNX importer (onnx_import_test.cpp).
}

TEST_CASE("legacy broadcast/axis attributes (opset < 7)", "[ops][binary]") {
  OpTester ok("Add", 6);
  ok.input(DType::F32, {2, 3, 4})
      .input(DType::F32, {3, 4})
      .attr("broadcast", int64_t{1})
      .attr("axis", int64_t{1});
  REQUIRE(ok.run().isOk());
  CHECK(ok.out().shape == ir::Shape{2, 3, 4});
  CHECK_FALSE(ok.node()->attrs.has("broadcast"));
  OpTester mid("Mul", 6);
  mid.input(DType::F32, {2, 3, 4, 5})
      .input(DType::F32, {3, 4})
      .attr("broadcast", int64_t{1})
      .attr("axis", int64_t{1});
  CHECK(mentions(mid.run(), "opset >= 7"));
}

TEST_CASE("comparison kernels broadcast and give bools", "[ops][binary]") {
  using asc::test::bytesOf;
  using asc::test::runKernel;
  const std::vector<int64_t> a = {1, 5, -3, 7, 2, 2};  // [2, 3]
  const std::vector<int64_t> b = {2, 5, -4};           // [3]
  for (const char* op : {"Greater", "Less", "GreaterOrEqual", "LessOrEqual", "Equal"}) {
    INFO(op);
    const std::string o = op;
    OpTester t(op);
    t.input(DType::I64, {2, 3}).input(DType::I64, {3});
    auto got = runKernel<uint8_t>(t, {bytesOf(a), bytesOf(b)});
    REQUIRE(got.size() == 6);
    for (size_t i = 0; i < 6; ++i) {
      const int64_t x = a[i], y = b[i % 3];
      const bool want = o == "Greater"          ? x > y
                        : o == "Less"           ? x < y
                        : o == "GreaterOrEqual" ? x >= y
                        : o == "LessOrEqual"    ? x <= y
                                                : x == y;
      CHECK(got[i] == want);
    }
  }
  const std::vector<float> fa = {0.5f, -1.f, 3.f}, fb = {0.5f};
  OpTester g("GreaterOrEqual");
  g.input(DType::F32, {3}).input(DType::F32, {1});
  CHECK(runKernel<uint8_t>(g, {bytesOf(fa), bytesOf(fb)}) == std::vector<uint8_t>{1, 0, 1});
  const std::vector<int16_t> ia = {-3, 4}, ib = {4, -3};
  OpTester l("Less");
  l.input(DType::I16, {2}).input(DType::I16, {2});
  CHECK(runKernel<uint8_t>(l, {bytesOf(ia), bytesOf(ib)}) == std::vector<uint8_t>{1, 0});
  OpTester f("Greater");
  f.constInts({1, 5}).constInts({3});
  REQUIRE(f.run().isOk());
  REQUIRE(f.out().isConstant());
  CHECK(f.out().dtype == DType::Bool);
  CHECK(f.out().tensor().toInts() == Ints{0, 1});
}

TEST_CASE("And/Or/Xor on bools", "[ops][binary]") {
  using asc::test::bytesOf;
  const std::vector<uint8_t> a = {0, 0, 1, 1}, b = {0, 1, 0, 1};
  const std::pair<const char*, std::vector<uint8_t>> cases[] = {
      {"And", {0, 0, 0, 1}}, {"Or", {0, 1, 1, 1}}, {"Xor", {0, 1, 1, 0}}};
  for (const auto& [op, want] : cases) {
    INFO(op);
    OpTester t(op);
    t.input(DType::Bool, {2, 2}).input(DType::Bool, {2, 2});
    CHECK(asc::test::runKernel<uint8_t>(t, {bytesOf(a), bytesOf(b)}) == want);
    OpTester bc(op);  // [2, 2] with [2, 1]
    bc.input(DType::Bool, {2, 2}).input(DType::Bool, {2, 1});
    auto got = asc::test::runKernel<uint8_t>(bc, {bytesOf(a), bytesOf(std::vector<uint8_t>{1, 0})});
    for (size_t i = 0; i < 4; ++i) {
      const bool x = a[i], y = i < 2;
      const bool w = op[0] == 'A' ? x && y : op[0] == 'O' ? x || y : x != y;
      CHECK(got[i] == w);
    }
  }
  OpTester bad("And");
  bad.input(DType::I32, {2}).input(DType::I32, {2});
  CHECK(mentions(bad.run(), "bool"));
}

TEST_CASE("BitShift left and right on unsigned types", "[ops][binary]") {
  using asc::test::bytesOf;
  const std::vector<uint8_t> x8 = {16, 4, 1, 255}, s8 = {1, 2, 3, 1};
  OpTester l("BitShift");
  l.input(DType::U8, {4}).input(DType::U8, {4}).attr("direction", std::string("LEFT"));
  CHECK(asc::test::runKernel<uint8_t>(l, {bytesOf(x8), bytesOf(s8)}) ==
        std::vector<uint8_t>{32, 16, 8, 254});
  OpTester r("BitShift");
  r.input(DType::U8, {4}).input(DType::U8, {4}).attr("direction", std::string("RIGHT"));
  CHECK(asc::test::runKernel<uint8_t>(r, {bytesOf(x8), bytesOf(s8)}) ==
        std::vector<uint8_t>{8, 1, 0, 127});
  const std::vector<uint64_t> x64 = {1, 1ull << 63}, s64 = {63, 63};
  OpTester l64("BitShift");
  l64.input(DType::U64, {2}).input(DType::U64, {2}).attr("direction", std::string("LEFT"));
  CHECK(asc::test::runKernel<uint64_t>(l64, {bytesOf(x64), bytesOf(s64)}) ==
        std::vector<uint64_t>{1ull << 63, 0});
  OpTester bad("BitShift");
  bad.input(DType::I32, {2}).input(DType::I32, {2}).attr("direction", std::string("LEFT"));
  CHECK(mentions(bad.run(), "unsigned"));
  OpTester dir("BitShift");
  dir.input(DType::U8, {2}).input(DType::U8, {2}).attr("direction", std::string("UP"));
  CHECK(mentions(dir.run(), "direction"));
}

TEST_CASE("BitwiseAnd, BitwiseOr and BitwiseXor (opset 18) on integers", "[ops][binary]") {
  using asc::test::bytesOf;
  const std::vector<int64_t> a = {0x0F0F, -1, int64_t(1) << 62, -8},
                             b = {0x00FF, 0x1234, (int64_t(1) << 62) | 1, 7};
  for (const char* op : {"BitwiseAnd", "BitwiseOr", "BitwiseXor"}) {
    INFO(op);
    OpTester t(op);
    t.input(DType::I64, {4}).input(DType::I64, {4});
    auto got = asc::test::runKernel<int64_t>(t, {bytesOf(a), bytesOf(b)});
    for (size_t i = 0; i < a.size(); ++i) {
      const int64_t want = op[7] == 'A'   ? (a[i] & b[i])
                           : op[7] == 'O' ? (a[i] | b[i])
                                          : (a[i] ^ b[i]);
      CHECK(got[i] == want);
    }
  }
  const std::vector<uint8_t> x = {0xF0, 0x3C}, y = {0xFF};
  OpTester bc("BitwiseXor");
  bc.input(DType::U8, {2}).input(DType::U8, {1});  // broadcast
  CHECK(asc::test::runKernel<uint8_t>(bc, {bytesOf(x), bytesOf(y)}) ==
        std::vector<uint8_t>{0x0F, 0xC3});
  OpTester f("BitwiseAnd");
  f.input(DType::F32, {2}).input(DType::F32, {2});
  CHECK(mentions(f.run(), "integer"));
}

TEST_CASE("Mod: divisor's sign (fmod 0) or dividend's (fmod 1)", "[ops][binary]") {
  using asc::test::bytesOf;
  const std::vector<int32_t> a = {-4, 7, 5, -4, 0, 9}, b = {3, -3, 5, 2, 3, 0};
  // Python's %: the sign of the divisor; x % 0 is defined here as 0.
  auto pymod = [](int64_t x, int64_t y) -> int64_t {
    if (y == 0) return 0;
    int64_t r = x % y;
    return r != 0 && ((r < 0) != (y < 0)) ? r + y : r;
  };
  OpTester m("Mod");
  m.input(DType::I32, {6}).input(DType::I32, {6});
  auto got = asc::test::runKernel<int32_t>(m, {bytesOf(a), bytesOf(b)});
  for (size_t i = 0; i < 6; ++i) CHECK(got[i] == pymod(a[i], b[i]));
  CHECK(got[0] == 2);
  CHECK(got[1] == -2);
  OpTester c("Mod");
  c.input(DType::I32, {6}).input(DType::I32, {6}).attr("fmod", int64_t{1});
  auto gc = asc::test::runKernel<int32_t>(c, {bytesOf(a), bytesOf(b)});
  CHECK(gc[0] == -1);
  CHECK(gc[1] == 1);
  const std::vector<float> fa = {-4.3f, 7.5f, 5.f}, fb = {2.1f, -2.f, 5.f};
  OpTester f("Mod");
  f.input(DType::F32, {3}).input(DType::F32, {3}).attr("fmod", int64_t{1});
  auto gf = asc::test::runKernel<float>(f, {bytesOf(fa), bytesOf(fb)});
  for (size_t i = 0; i < 3; ++i) CHECK(gf[i] == Approx(std::fmod(fa[i], fb[i])));
  const std::vector<uint8_t> ua = {200, 7}, ub = {7, 200};
  OpTester u("Mod");
  u.input(DType::U8, {2}).input(DType::U8, {2});
  CHECK(asc::test::runKernel<uint8_t>(u, {bytesOf(ua), bytesOf(ub)}) == std::vector<uint8_t>{4, 7});
  OpTester nf("Mod");
  nf.input(DType::F32, {3}).input(DType::F32, {3});
  CHECK(mentions(nf.run(), "fmod"));
  OpTester k("Mod");
  k.constInts({-4, 7}).constInts({3, -3});
  REQUIRE(k.run().isOk());
  REQUIRE(k.out().isConstant());
  CHECK(k.out().tensor().toInts() == Ints{2, -2});
}

TEST_CASE("Mean of 1 to 3 inputs, broadcasting", "[ops][binary]") {
  using asc::test::bytesOf;
  const std::vector<float> a = {1, 2, 3, 4}, b = {10, 20}, c = {0.5f};
  OpTester t("Mean");
  t.input(DType::F32, {2, 2}).input(DType::F32, {2}).input(DType::F32, {1});
  auto got = asc::test::runKernel<float>(t, {bytesOf(a), bytesOf(b), bytesOf(c)});
  for (size_t i = 0; i < 4; ++i) CHECK(got[i] == Approx((a[i] + b[i % 2] + c[0]) / 3));
  OpTester one("Mean");
  one.input(DType::F32, {4});
  CHECK(asc::test::runKernel<float>(one, {bytesOf(a)}) == a);
  OpTester f("Mean");
  f.constFloats({1, 2}, {2}).constFloats({3, 6}, {2});
  REQUIRE(f.run().isOk());
  REQUIRE(f.out().isConstant());
  CHECK(doublesOf(f.out()) == std::vector<double>{2, 4});
  OpTester ints("Mean");
  ints.input(DType::I32, {2}).input(DType::I32, {2});
  CHECK(mentions(ints.run(), "float"));
}
