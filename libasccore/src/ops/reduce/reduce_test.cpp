// reduce_test.cpp: ReduceMean/Sum/Max shapes, keepdims, axes as attribute or input (ReduceSum
// since opset 13), noop_with_empty_axes, errors and constant folding; every reduction kernel and
// ArgMax/ArgMin, CumSum and TopK against a naive reference.
#include <catch2/catch.hpp>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("ReduceMean axes attribute and keepdims", "[ops][reduce]") {
  OpTester t("ReduceMean");
  t.input(DType::F32, {2, 3, 4, 5}).attr("axes", Ints{-1, 2});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{2, 3, 1, 1});
  CHECK(t.node()->attrs.getInts("axes") == Ints{2, 3});
  CHECK(ops::nodeFlops(*t.node()) == 120);
  OpTester k("ReduceMax");
  k.input(DType::F32, {2, 3, 4}).attr("axes", Ints{1}).attr("keepdims", int64_t{0});
  REQUIRE(k.run().isOk());
  CHECK(k.out().shape == ir::Shape{2, 4});
  OpTester all("ReduceMean");
  all.input(DType::F32, {2, 3}).attr("keepdims", int64_t{0});
  REQUIRE(all.run().isOk());
  CHECK(all.out().shape == ir::Shape{});
  CHECK(all.node()->attrs.getInts("axes") == Ints{0, 1});
}

TEST_CASE("ReduceSum axes: attribute at opset 11, input at 13", "[ops][reduce]") {
  OpTester a("ReduceSum", 11);
  a.input(DType::F32, {2, 3, 4}).attr("axes", Ints{1});
  REQUIRE(a.run().isOk());
  CHECK(a.out().shape == ir::Shape{2, 1, 4});
  OpTester i("ReduceSum", 13);
  i.input(DType::F32, {2, 3, 4}).constInts({0, -1}).attr("keepdims", int64_t{0});
  REQUIRE(i.run().isOk());
  CHECK(i.out().shape == ir::Shape{3});
  CHECK(i.node()->inputs.size() == 1);
  CHECK(i.node()->attrs.getInts("axes") == Ints{0, 2});
  OpTester noop("ReduceSum", 13);
  noop.input(DType::F32, {2, 3}).attr("noop_with_empty_axes", int64_t{1});
  REQUIRE(noop.run().isOk());
  CHECK(noop.out().shape == ir::Shape{2, 3});
  OpTester dyn("ReduceSum", 13);
  dyn.input(DType::F32, {2, 3}).input(DType::I64, {1});
  CHECK(mentions(dyn.run(), "compile time"));
}

TEST_CASE("reduce errors", "[ops][reduce]") {
  OpTester r("ReduceMean");
  r.input(DType::F32, {2, 3}).attr("axes", Ints{2});
  CHECK(mentions(r.run(), "out of range"));
  OpTester d("ReduceMax");
  d.input(DType::F32, {2, 3}).attr("axes", Ints{1, -1});
  CHECK(mentions(d.run(), "twice"));
  OpTester k("ReduceSum", 11);
  k.input(DType::F32, {2, 3}).attr("keepdims", int64_t{2});
  CHECK(mentions(k.run(), "keepdims"));
}

TEST_CASE("reductions fold on constants", "[ops][reduce]") {
  OpTester s("ReduceSum", 13);
  s.constInts({1, 2, 3, 4, 5, 6}, {2, 3}).constInts({1});
  REQUIRE(s.run().isOk());
  REQUIRE(s.out().isConstant());
  CHECK(s.out().shape == ir::Shape{2, 1});
  CHECK(s.out().tensor().toInts() == Ints{6, 15});
  OpTester m("ReduceMax");
  m.constFloats({1, 9, 3, 4, 5, 6}, {2, 3}).attr("axes", Ints{0}).attr("keepdims", int64_t{0});
  REQUIRE(m.run().isOk());
  ir::Tensor v = m.out().tensor();
  CHECK(v.floatAt(0) == 4.0);
  CHECK(v.floatAt(1) == 9.0);
  CHECK(v.floatAt(2) == 6.0);
  OpTester mean("ReduceMean");
  mean.constFloats({1, 2, 3, 4}, {4});
  REQUIRE(mean.run().isOk());
  CHECK(mean.out().tensor().floatAt(0) == 2.5);
}

TEST_CASE("reduce re-inference on the canonical node is stable", "[ops][reduce]") {
  for (int64_t noop : {0, 1}) {
    OpTester t("ReduceSum", 13);
    t.input(DType::F32, {2, 3}).attr("noop_with_empty_axes", noop);
    REQUIRE(t.run().isOk());
    const ir::Attrs attrs = t.node()->attrs;
    const ir::Shape shape = t.out().shape;
    REQUIRE(ops::inferGraph(t.graph()).isOk());
    CHECK(t.node()->attrs == attrs);
    CHECK(t.out().shape == shape);
  }
}

namespace {

// Naive reference: reduces x of shape [2, 3, 4] over `axes` (sorted) with keepdims=1 in double.
std::vector<double> naiveReduce(const std::vector<float>& x, const Ints& axes,
                                const std::string& op) {
  const Ints dims = {2, 3, 4};
  Ints od = dims;
  for (int64_t a : axes) od[a] = 1;
  std::vector<std::vector<double>> groups(od[0] * od[1] * od[2]);
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t k = 0; k < 4; ++k) {
        const int64_t oi = od[0] == 1 ? 0 : i, oj = od[1] == 1 ? 0 : j, ok = od[2] == 1 ? 0 : k;
        groups[(oi * od[1] + oj) * od[2] + ok].push_back(x[(i * 3 + j) * 4 + k]);
      }
  std::vector<double> out;
  for (const auto& g : groups) {
    double r = 0;
    if (op == "ReduceMin") r = *std::min_element(g.begin(), g.end());
    if (op == "ReduceMax") r = *std::max_element(g.begin(), g.end());
    if (op == "ReduceProd") {
      r = 1;
      for (double v : g) r *= v;
    }
    for (double v : g) {
      if (op == "ReduceL1") r += std::fabs(v);
      if (op == "ReduceL2" || op == "ReduceSumSquare") r += v * v;
      if (op == "ReduceLogSum" || op == "ReduceSum" || op == "ReduceMean") r += v;
      if (op == "ReduceLogSumExp") r += std::exp(v);
    }
    if (op == "ReduceL2") r = std::sqrt(r);
    if (op == "ReduceLogSum" || op == "ReduceLogSumExp") r = std::log(r);
    if (op == "ReduceMean") r /= static_cast<double>(g.size());
    out.push_back(r);
  }
  return out;
}

}  // namespace

TEST_CASE("reduction kernels and folding match a naive reference", "[ops][reduce]") {
  std::vector<float> x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.25f + 0.1f * static_cast<float>((i * 7) % 11);
  const int64_t axes_sets[][2] = {{1, -1}, {0, 2}, {2, -1}};
  for (const char* op : {"ReduceMin", "ReduceMax", "ReduceProd", "ReduceL1", "ReduceL2",
                         "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp", "ReduceMean"}) {
    for (const auto& as : axes_sets) {
      Ints axes;
      for (int64_t a : as)
        if (a >= 0) axes.push_back(a);
      INFO(op << " axes " << axes.size() << " from " << axes[0]);
      const auto want = naiveReduce(x, axes, op);
      OpTester t(op);
      t.input(DType::F32, {2, 3, 4}).attr("axes", axes);
      auto got = asc::test::runKernel<float>(t, {asc::test::bytesOf(x)});
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]).epsilon(1e-5));
      OpTester f(op);
      f.constant(DType::F32, {2, 3, 4}, x.data(), x.size() * 4).attr("axes", axes);
      REQUIRE(f.run().isOk());
      REQUIRE(f.out().isConstant());
      const auto folded = doublesOf(f.out());
      for (size_t i = 0; i < folded.size(); ++i) CHECK(folded[i] == Approx(want[i]).epsilon(1e-5));
    }
  }
  // Integer ReduceMin/Prod on int64, and ReduceMin over every axis without keepdims.
  std::vector<int64_t> xi = {4, -2, 7, 3, 5, -6};
  OpTester mi("ReduceMin");
  mi.input(DType::I64, {2, 3}).attr("axes", Ints{1});
  CHECK(asc::test::runKernel<int64_t>(mi, {asc::test::bytesOf(xi)}) == Ints{-2, -6});
  OpTester pi("ReduceProd");
  pi.input(DType::I64, {2, 3}).attr("axes", Ints{0});
  CHECK(asc::test::runKernel<int64_t>(pi, {asc::test::bytesOf(xi)}) == Ints{12, -10, -42});
  OpTester all("ReduceMin");
  all.input(DType::F32, {2, 3}).attr("keepdims", int64_t{0});
  REQUIRE(all.run().isOk());
  CHECK(all.out().shape == ir::Shape{});
}

TEST_CASE("ArgMax/ArgMin: axis, keepdims, select_last_index", "[ops][reduce]") {
  // [2, 3] with ties: row 0 = {2, 7, 7}, row 1 = {1, 1, 0}.
  const std::vector<float> x = {2, 7, 7, 1, 1, 0};
  struct Case {
    const char* op;
    int64_t axis, keepdims, last;
    ir::Shape shape;
    Ints want;
  };
  const Case cases[] = {
      {"ArgMax", 1, 1, 0, {2, 1}, {1, 0}},    {"ArgMax", 1, 0, 1, {2}, {2, 1}},
      {"ArgMax", 0, 1, 0, {1, 3}, {0, 0, 0}}, {"ArgMin", -1, 1, 0, {2, 1}, {0, 2}},
      {"ArgMin", 0, 0, 1, {3}, {1, 1, 1}},    {"ArgMin", 1, 1, 1, {2, 1}, {0, 2}}};
  for (const auto& c : cases) {
    INFO(c.op << " axis " << c.axis << " keepdims " << c.keepdims << " last " << c.last);
    OpTester t(c.op);
    t.input(DType::F32, {2, 3})
        .attr("axis", c.axis)
        .attr("keepdims", c.keepdims)
        .attr("select_last_index", c.last);
    auto got = asc::test::runKernel<int64_t>(t, {asc::test::bytesOf(x)});
    CHECK(got == c.want);
    OpTester f(c.op);
    f.constFloats(x, {2, 3})
        .attr("axis", c.axis)
        .attr("keepdims", c.keepdims)
        .attr("select_last_index", c.last);
    REQUIRE(f.run().isOk());
    REQUIRE(f.out().isConstant());
    CHECK(f.out().shape == c.shape);
    CHECK(f.out().tensor().toInts() == c.want);
  }
  OpTester bad("ArgMax");
  bad.input(DType::F32, {2, 3}).attr("axis", int64_t{2});
  CHECK(mentions(bad.run(), "out of range"));
  const std::vector<int32_t> xi = {3, 9, -1, 9};
  OpTester ti("ArgMax");
  ti.input(DType::I32, {4}).attr("select_last_index", int64_t{1});
  CHECK(asc::test::runKernel<int64_t>(ti, {asc::test::bytesOf(xi)}) == Ints{3});
}

TEST_CASE("CumSum: axis at run time, exclusive, reverse", "[ops][reduce]") {
  const std::vector<double> x = {1, 2, 3, 4, 5, 6};  // [2, 3]
  struct Case {
    int64_t axis, exclusive, reverse;
    std::vector<double> want;
  };
  const Case cases[] = {{1, 0, 0, {1, 3, 6, 4, 9, 15}}, {0, 0, 0, {1, 2, 3, 5, 7, 9}},
                        {-1, 1, 0, {0, 1, 3, 0, 4, 9}}, {1, 0, 1, {6, 5, 3, 15, 11, 6}},
                        {1, 1, 1, {5, 3, 0, 11, 6, 0}}, {0, 1, 1, {4, 5, 6, 0, 0, 0}}};
  for (const auto& c : cases) {
    INFO("axis " << c.axis << " exclusive " << c.exclusive << " reverse " << c.reverse);
    OpTester t("CumSum", 14);
    t.input(DType::F64, {2, 3}).input(DType::I32, {}).attr("exclusive", c.exclusive);
    t.attr("reverse", c.reverse);
    const std::vector<int32_t> axis = {static_cast<int32_t>(c.axis)};
    CHECK(asc::test::runKernel<double>(t, {asc::test::bytesOf(x), asc::test::bytesOf(axis)}) ==
          c.want);
    OpTester f("CumSum", 14);
    f.constant(DType::F64, {2, 3}, x.data(), x.size() * 8).constInts({c.axis}, {});
    f.attr("exclusive", c.exclusive).attr("reverse", c.reverse);
    REQUIRE(f.run().isOk());
    REQUIRE(f.out().isConstant());
    CHECK(doublesOf(f.out()) == c.want);
  }
  OpTester i("CumSum", 14);
  i.input(DType::I64, {4}).input(DType::I64, {1});
  CHECK(asc::test::runKernel<int64_t>(i, {asc::test::bytesOf(Ints{5, -1, 2, 7}),
                                          asc::test::bytesOf(Ints{0})}) == Ints{5, 4, 6, 13});
  OpTester bad("CumSum", 14);
  bad.input(DType::F32, {2, 3}).constInts({2}, {});
  CHECK(mentions(bad.run(), "out of range"));
}

TEST_CASE("TopK: largest/smallest along an axis, ties by lower index", "[ops][reduce]") {
  const std::vector<float> x = {3, 1, 3, 2, 0, 5, 5, 4};  // [2, 4]
  OpTester t("TopK", 11);
  t.input(DType::F32, {2, 4}).constInts({2}).outputs(2);
  CHECK(asc::test::runKernel<float>(t, {asc::test::bytesOf(x)}, 0) ==
        std::vector<float>{3, 3, 5, 5});
  OpTester ti("TopK", 11);
  ti.input(DType::F32, {2, 4}).constInts({2}).outputs(2);
  CHECK(asc::test::runKernel<int64_t>(ti, {asc::test::bytesOf(x)}, 1) == Ints{0, 2, 1, 2});
  OpTester s("TopK", 11);  // smallest along axis 0
  s.input(DType::F32, {2, 4}).constInts({1}).outputs(2).attr("largest", int64_t{0});
  s.attr("axis", int64_t{0});
  CHECK(asc::test::runKernel<int64_t>(s, {asc::test::bytesOf(x)}, 1) == Ints{1, 0, 0, 0});
  OpTester old("TopK", 9);  // k as an attribute
  old.input(DType::I32, {5}).attr("k", int64_t{3}).outputs(2);
  CHECK(asc::test::runKernel<int32_t>(old,
                                      {asc::test::bytesOf(std::vector<int32_t>{4, 9, -1, 9, 7})},
                                      0) == std::vector<int32_t>{9, 9, 7});
  OpTester dyn("TopK", 11);
  dyn.input(DType::F32, {2, 4}).input(DType::I64, {1}).outputs(2);
  CHECK(mentions(dyn.run(), "compile time"));
  OpTester big("TopK", 11);
  big.input(DType::F32, {2, 4}).constInts({5}).outputs(2);
  CHECK(mentions(big.run(), "out of range"));
}
