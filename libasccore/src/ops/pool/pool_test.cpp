// pool_test.cpp: pooling output shapes (pads, strides, dilations, ceil_mode), auto_pad
// resolution into explicit pads, the MaxPool Indices output and the error cases.
#include <catch2/catch.hpp>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("MaxPool shape with pads and strides; Indices are int64", "[ops][pool]") {
  OpTester t("MaxPool");
  t.input(DType::F32, {1, 3, 32, 32})
      .attr("kernel_shape", Ints{3, 3})
      .attr("strides", Ints{2, 2})
      .attr("pads", Ints{1, 1, 1, 1})
      .outputs(2);
  REQUIRE(t.run().isOk());
  CHECK(t.out(0).shape == ir::Shape{1, 3, 16, 16});
  CHECK(t.out(1).shape == ir::Shape{1, 3, 16, 16});
  CHECK(t.out(1).dtype == DType::I64);
  CHECK(ops::nodeFlops(*t.node()) == 3 * 16 * 16 * 9);
}

TEST_CASE("MaxPool ceil_mode and dilations", "[ops][pool]") {
  OpTester f("MaxPool");
  f.input(DType::F32, {1, 1, 6, 6}).attr("kernel_shape", Ints{3, 3}).attr("strides", Ints{2, 2});
  REQUIRE(f.run().isOk());
  CHECK(f.out().shape == ir::Shape{1, 1, 2, 2});
  OpTester c("MaxPool", 10);
  c.input(DType::F32, {1, 1, 6, 6})
      .attr("kernel_shape", Ints{3, 3})
      .attr("strides", Ints{2, 2})
      .attr("ceil_mode", int64_t{1});
  REQUIRE(c.run().isOk());
  CHECK(c.out().shape == ir::Shape{1, 1, 3, 3});
  // ceil_mode may not start a window in the end padding: 5 with k2 s2 p1 -> 3, not 4.
  OpTester e("MaxPool", 10);
  e.input(DType::F32, {1, 1, 5})
      .attr("kernel_shape", Ints{2})
      .attr("strides", Ints{2})
      .attr("pads", Ints{1, 1})
      .attr("ceil_mode", int64_t{1});
  REQUIRE(e.run().isOk());
  CHECK(e.out().shape == ir::Shape{1, 1, 3});
  OpTester d("MaxPool", 10);
  d.input(DType::F32, {1, 1, 10, 10})
      .attr("kernel_shape", Ints{3, 3})
      .attr("dilations", Ints{2, 2});
  REQUIRE(d.run().isOk());
  CHECK(d.out().shape == ir::Shape{1, 1, 6, 6});
}

TEST_CASE("pool auto_pad resolves to explicit pads", "[ops][pool]") {
  OpTester u("MaxPool");
  u.input(DType::F32, {1, 1, 7, 7})
      .attr("kernel_shape", Ints{4, 4})
      .attr("strides", Ints{2, 2})
      .attr("auto_pad", std::string("SAME_UPPER"));
  REQUIRE(u.run().isOk());
  CHECK(u.out().shape == ir::Shape{1, 1, 4, 4});
  CHECK(u.node()->attrs.getInts("pads") == Ints{1, 1, 2, 2});
  CHECK(u.node()->attrs.getString("auto_pad", "") == "NOTSET");
  OpTester l("AveragePool");
  l.input(DType::F32, {1, 1, 7, 7})
      .attr("kernel_shape", Ints{4, 4})
      .attr("strides", Ints{2, 2})
      .attr("auto_pad", std::string("SAME_LOWER"));
  REQUIRE(l.run().isOk());
  CHECK(l.node()->attrs.getInts("pads") == Ints{2, 2, 1, 1});
  OpTester v("AveragePool");
  v.input(DType::F32, {1, 1, 7, 7})
      .attr("kernel_shape", Ints{3, 3})
      .attr("strides", Ints{2, 2})
      .attr("pads", Ints{1, 1, 1, 1})
      .attr("auto_pad", std::string("VALID"));
  REQUIRE(v.run().isOk());
  CHECK(v.out().shape == ir::Shape{1, 1, 3, 3});
  CHECK(v.node()->attrs.getInts("pads") == Ints{0, 0, 0, 0});
}

TEST_CASE("AveragePool count_include_pad and checks", "[ops][pool]") {
  OpTester t("AveragePool");
  t.input(DType::F16, {2, 8, 9, 9})
      .attr("kernel_shape", Ints{3, 3})
      .attr("pads", Ints{1, 1, 1, 1})
      .attr("count_include_pad", int64_t{1});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{2, 8, 9, 9});
  CHECK(t.out().dtype == DType::F16);
  OpTester i("AveragePool");
  i.input(DType::I32, {1, 1, 4, 4}).attr("kernel_shape", Ints{2, 2});
  CHECK(mentions(i.run(), "float"));
  OpTester c("AveragePool");
  c.input(DType::F32, {1, 1, 4, 4})
      .attr("kernel_shape", Ints{2, 2})
      .attr("count_include_pad", int64_t{2});
  CHECK(mentions(c.run(), "count_include_pad"));
}

TEST_CASE("pool errors: rank, kernel, pads, auto_pad", "[ops][pool]") {
  OpTester r("MaxPool");
  r.input(DType::F32, {4, 4}).attr("kernel_shape", Ints{2});
  CHECK(mentions(r.run(), "rank >= 3"));
  OpTester k("MaxPool");
  k.input(DType::F32, {1, 1, 4, 4});
  CHECK(mentions(k.run(), "kernel_shape is required"));
  OpTester kl("MaxPool");
  kl.input(DType::F32, {1, 1, 4, 4}).attr("kernel_shape", Ints{2});
  CHECK(mentions(kl.run(), "spatial dims"));
  OpTester big("MaxPool");
  big.input(DType::F32, {1, 1, 4, 4}).attr("kernel_shape", Ints{5, 5});
  CHECK(mentions(big.run(), "smaller than the kernel"));
  OpTester s("MaxPool");
  s.input(DType::F32, {1, 1, 4, 4}).attr("kernel_shape", Ints{2, 2}).attr("strides", Ints{0, 1});
  CHECK(mentions(s.run(), "positive"));
  OpTester np("MaxPool");
  np.input(DType::F32, {1, 1, 4, 4})
      .attr("kernel_shape", Ints{2, 2})
      .attr("pads", Ints{-1, 0, 0, 0});
  CHECK(mentions(np.run(), ">= 0"));
  OpTester ap("MaxPool");
  ap.input(DType::F32, {1, 1, 4, 4})
      .attr("kernel_shape", Ints{2, 2})
      .attr("auto_pad", std::string("SAME"));
  CHECK(mentions(ap.run(), "auto_pad"));
  OpTester so("MaxPool");
  so.input(DType::F32, {1, 1, 4, 4})
      .attr("kernel_shape", Ints{2, 2})
      .attr("storage_order", int64_t{3});
  CHECK(mentions(so.run(), "storage_order"));
}

TEST_CASE("GlobalAveragePool and GlobalMaxPool keep N, C", "[ops][pool]") {
  OpTester a("GlobalAveragePool");
  a.input(DType::F32, {2, 16, 7, 9});
  REQUIRE(a.run().isOk());
  CHECK(a.out().shape == ir::Shape{2, 16, 1, 1});
  CHECK(ops::nodeFlops(*a.node()) == 2 * 16 * 7 * 9);
  OpTester m("GlobalMaxPool");
  m.input(DType::I8, {1, 4, 5});
  REQUIRE(m.run().isOk());
  CHECK(m.out().shape == ir::Shape{1, 4, 1});
  OpTester r("GlobalMaxPool");
  r.input(DType::F32, {4, 5});
  CHECK(mentions(r.run(), "rank >= 3"));
}

TEST_CASE("pool re-inference on the canonical node is stable", "[ops][pool]") {
  OpTester t("MaxPool", 12);
  t.input(DType::F32, {1, 1, 7, 7})
      .attr("kernel_shape", Ints{4, 4})
      .attr("strides", Ints{2, 2})
      .attr("auto_pad", std::string("SAME_LOWER"))
      .attr("ceil_mode", int64_t{1});
  REQUIRE(t.run().isOk());
  const ir::Attrs attrs = t.node()->attrs;
  REQUIRE(ops::inferGraph(t.graph()).isOk());
  CHECK(t.node()->attrs == attrs);
  CHECK(t.out().shape == ir::Shape{1, 1, 4, 4});
}

namespace {

// Naive 2-D max pooling of x [N, C, H, W]: values and the flattened input index of each
// maximum (row-major, or with h varying fastest when col_major); the first maximum wins.
template <typename T>
void referenceMaxPool(const std::vector<T>& x, const Ints& xs, const Ints& k, const Ints& s,
                      const Ints& p, const Ints& ys, bool col_major, std::vector<T>* y,
                      std::vector<int64_t>* idx) {
  const int64_t H = xs[2], W = xs[3];
  for (int64_t nc = 0; nc < xs[0] * xs[1]; ++nc)
    for (int64_t i = 0; i < ys[2]; ++i)
      for (int64_t j = 0; j < ys[3]; ++j) {
        bool any = false;
        T best{};
        int64_t at = 0;
        for (int64_t a = 0; a < k[0]; ++a)
          for (int64_t b = 0; b < k[1]; ++b) {
            const int64_t h = i * s[0] - p[0] + a, w = j * s[1] - p[1] + b;
            if (h < 0 || h >= H || w < 0 || w >= W) continue;
            const T v = x[nc * H * W + h * W + w];
            if (!any || v > best) {
              best = v;
              at = nc * H * W + (col_major ? w * H + h : h * W + w);
              any = true;
            }
          }
        y->push_back(best);
        idx->push_back(at);
      }
}

}  // namespace

TEST_CASE("MaxPool Indices and uint8/int8 match a naive loop", "[ops][pool]") {
  struct Case {
    Ints xs, k, s, p;
    int64_t order;
  };
  const Case cases[] = {
      {{1, 1, 5, 5}, {5, 5}, {1, 1}, {2, 2, 2, 2}, 0},
      {{1, 1, 5, 5}, {2, 2}, {2, 2}, {0, 0, 0, 0}, 1},
      {{2, 3, 7, 6}, {3, 2}, {2, 1}, {1, 0, 1, 1}, 0},
      {{2, 3, 7, 6}, {3, 3}, {2, 2}, {1, 1, 0, 1}, 1},
  };
  for (const Case& c : cases) {
    INFO("x [" << ir::shapeToString(c.xs) << "] k [" << ir::shapeToString(c.k) << "] order "
               << c.order);
    const int64_t n = ir::numElements(c.xs);
    std::vector<float> xf(n);
    std::vector<uint8_t> xu(n);
    std::vector<int8_t> xi(n);
    for (int64_t i = 0; i < n; ++i) {
      // Values with ties, so that the first-maximum rule matters.
      xf[i] = static_cast<float>((i * 37) % 23) - 11.f;
      xu[i] = static_cast<uint8_t>((i * 53) % 251);
      xi[i] = static_cast<int8_t>((i * 29) % 255 - 127);
    }
    auto make = [&](DType t, int outs) {
      OpTester o("MaxPool", 12);
      o.input(t, c.xs)
          .attr("kernel_shape", c.k)
          .attr("strides", c.s)
          .attr("pads", c.p)
          .attr("storage_order", c.order)
          .outputs(outs);
      return o;
    };
    OpTester shp = make(DType::F32, 2);
    REQUIRE(shp.run().isOk());
    const Ints ys = shp.out(0).shape;
    OpTester f = make(DType::F32, 2);
    const auto got_y = runKernel<float>(f, {bytesOf(xf)}, 0);
    OpTester fi = make(DType::F32, 2);
    const auto got_i = runKernel<int64_t>(fi, {bytesOf(xf)}, 1);
    std::vector<float> want_y;
    std::vector<int64_t> want_i;
    referenceMaxPool(xf, c.xs, c.k, c.s, c.p, ys, c.order != 0, &want_y, &want_i);
    CHECK(got_y == want_y);
    CHECK(got_i == want_i);
    OpTester u = make(DType::U8, 1);
    std::vector<uint8_t> want_u;
    want_i.clear();
    referenceMaxPool(xu, c.xs, c.k, c.s, c.p, ys, false, &want_u, &want_i);
    CHECK(runKernel<uint8_t>(u, {bytesOf(xu)}) == want_u);
    OpTester s8 = make(DType::I8, 1);
    std::vector<int8_t> want_s;
    referenceMaxPool(xi, c.xs, c.k, c.s, c.p, ys, false, &want_s, &want_i);
    CHECK(runKernel<int8_t>(s8, {bytesOf(xi)}) == want_s);
  }
}
