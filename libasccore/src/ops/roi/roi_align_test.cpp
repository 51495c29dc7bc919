// roi_align_test.cpp: the RoiAlign kernel against a naive reference that visits every sample of
// every bin (avg and max, half_pixel and output_half_pixel, adaptive and fixed sampling, regions
// partly or wholly outside the image), and its shape checks.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

namespace {

struct Params {
  int64_t oh = 2, ow = 3, sr = 0;
  float scale = 1.f;
  bool half_pixel = true, max = false;
};

// The value of one bilinear sample at (y, x) as the ONNX definition reads it: outside
// [-1, size] nothing (0, and for max the largest of four zero-weighted corners, 0).
double sampleAvg(const float* img, int64_t h, int64_t w, double y, double x, double* corner_max) {
  *corner_max = 0;
  if (y < -1 || y > h || x < -1 || x > w) return 0;
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  int64_t yl = static_cast<int64_t>(y), xl = static_cast<int64_t>(x);
  int64_t yh = yl + 1, xh = xl + 1;
  if (yl >= h - 1) yh = yl = h - 1, y = static_cast<double>(yl);
  if (xl >= w - 1) xh = xl = w - 1, x = static_cast<double>(xl);
  const double ly = y - yl, lx = x - xl;
  const double v[4] = {(1 - ly) * (1 - lx) * img[yl * w + xl], (1 - ly) * lx * img[yl * w + xh],
                       ly * (1 - lx) * img[yh * w + xl], ly * lx * img[yh * w + xh]};
  *corner_max = std::max(std::max(v[0], v[1]), std::max(v[2], v[3]));
  return v[0] + v[1] + v[2] + v[3];
}

Floats reference(const Floats& x, const ir::Shape& xs, const Floats& rois, const Ints& bi,
                 const Params& p) {
  const int64_t c = xs[1], h = xs[2], w = xs[3], r = static_cast<int64_t>(bi.size());
  Floats out;
  for (int64_t n = 0; n < r; ++n)
    for (int64_t ch = 0; ch < c; ++ch) {
      const float* img = x.data() + (bi[n] * c + ch) * h * w;
      const double off = p.half_pixel ? 0.5 : 0;
      const double x0 = rois[n * 4] * p.scale - off, y0 = rois[n * 4 + 1] * p.scale - off;
      double rw = rois[n * 4 + 2] * p.scale - off - x0, rh = rois[n * 4 + 3] * p.scale - off - y0;
      if (!p.half_pixel) rw = std::max(rw, 1.0), rh = std::max(rh, 1.0);
      const double bh = rh / p.oh, bw = rw / p.ow;
      const int64_t gh = p.sr > 0 ? p.sr : static_cast<int64_t>(std::ceil(bh));
      const int64_t gw = p.sr > 0 ? p.sr : static_cast<int64_t>(std::ceil(bw));
      for (int64_t i = 0; i < p.oh; ++i)
        for (int64_t j = 0; j < p.ow; ++j) {
          double sum = 0, best = 0;
          bool first = true;
          for (int64_t a = 0; a < gh; ++a)
            for (int64_t b = 0; b < gw; ++b) {
              const double y = y0 + i * bh + (a + 0.5) * bh / gh;
              const double xx = x0 + j * bw + (b + 0.5) * bw / gw;
              double m;
              sum += sampleAvg(img, h, w, y, xx, &m);
              best = first ? m : std::max(best, m);
              first = false;
            }
          out.push_back(static_cast<float>(
              p.max ? best : sum / static_cast<double>(std::max<int64_t>(gh * gw, 1))));
        }
    }
  return out;
}

Floats run(const Floats& x, const ir::Shape& xs, const Floats& rois, const Ints& bi,
           const Params& p, int opset = 16) {
  OpTester t("RoiAlign", opset);
  const int64_t r = static_cast<int64_t>(bi.size());
  t.input(DType::F32, xs).input(DType::F32, {r, 4}).input(DType::I64, {r});
  t.attr("output_height", p.oh).attr("output_width", p.ow).attr("sampling_ratio", p.sr);
  t.attr("spatial_scale", p.scale).attr("mode", std::string(p.max ? "max" : "avg"));
  if (opset >= 16)
    t.attr("coordinate_transformation_mode",
           std::string(p.half_pixel ? "half_pixel" : "output_half_pixel"));
  return runKernel<float>(t, {bytesOf(x), bytesOf(rois), bytesOf(bi)});
}

void checkClose(const Floats& got, const Floats& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(got[i] == Approx(want[i]).margin(1e-5).epsilon(1e-5));
  }
}

}  // namespace

TEST_CASE("RoiAlign matches a naive reference", "[ops][roi]") {
  std::mt19937 rng(7767517);
  std::uniform_real_distribution<float> val(-2.f, 2.f);
  const ir::Shape xs = {2, 3, 7, 9};
  Floats x(2 * 3 * 7 * 9);
  for (auto& v : x) v = val(rng);
  // Inside, straddling the edges, wholly outside, degenerate (x2 < x1), and tiny.
  const Floats rois = {1,  1,  5,  4,  -3,   -2, 4,    9, 2, 2, 30,   20,
                       20, 20, 40, 40, 5.5f, 4,  1.5f, 1, 3, 3, 3.2f, 3.1f};
  const Ints bi = {0, 1, 1, 0, 1, 0};
  for (bool half : {true, false})
    for (bool mx : {false, true})
      for (int64_t sr : {0, 2})
        for (float scale : {1.f, 0.5f}) {
          Params p;
          p.half_pixel = half;
          p.max = mx;
          p.sr = sr;
          p.scale = scale;
          INFO("half_pixel " << half << " max " << mx << " sampling_ratio " << sr << " scale "
                             << scale);
          checkClose(run(x, xs, rois, bi, p), reference(x, xs, rois, bi, p));
        }
  // Opset 10 has no coordinate_transformation_mode: output_half_pixel.
  Params old;
  old.half_pixel = false;
  checkClose(run(x, xs, rois, bi, old, 10), reference(x, xs, rois, bi, old));
}

TEST_CASE("RoiAlign: huge and NaN regions stay bounded; shape checks", "[ops][roi]") {
  const ir::Shape xs = {1, 1, 4, 4};
  Floats x(16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // A region of 1e30 pixels asks for 1e30 samples per bin: only those on the image are visited.
  const Floats rois = {-1e30f, -1e30f, 1e30f, 1e30f, nan, 0, 2, 2};
  Params p;
  const Floats got = run(x, xs, rois, {0, 0}, p);
  REQUIRE(got.size() == 12);
  for (float v : got) CHECK(std::abs(v) < 1e-3f);  // a handful of samples over ~1e30 weigh 0
  OpTester bad("RoiAlign", 16);
  bad.input(DType::F32, {1, 1, 4, 4}).input(DType::F32, {2, 4}).input(DType::I64, {3});
  CHECK(mentions(bad.run(), "batch_indices"));
  OpTester mode("RoiAlign", 16);
  mode.input(DType::F32, {1, 1, 4, 4}).input(DType::F32, {2, 4}).input(DType::I64, {2});
  mode.attr("mode", std::string("sum"));
  CHECK(mentions(mode.run(), "mode"));
  OpTester shape("RoiAlign", 16);
  shape.input(DType::F32, {2, 3, 8, 8}).input(DType::F32, {5, 4}).input(DType::I64, {5});
  shape.attr("output_height", int64_t{4}).attr("output_width", int64_t{6});
  REQUIRE(shape.run().isOk());
  CHECK(shape.out().shape == ir::Shape{5, 3, 4, 6});
}

TEST_CASE("RoiAlign: a batch index outside X fails the run", "[ops][roi]") {
  OpTester t("RoiAlign", 16);
  t.input(DType::F32, {1, 1, 4, 4}).input(DType::F32, {1, 4}).input(DType::I64, {1});
  REQUIRE(t.run(false).isOk());
  runtime::SessionOptions so;
  so.threads = 1;
  auto session = runtime::Session::fromGraph(std::move(t.graph()), so);
  REQUIRE(session.isOk());
  const Floats x(16, 1.f), roi = {0, 0, 2, 2};
  const Ints far = {1};
  REQUIRE((*session)->setInput(0, x.data(), 64).isOk());
  REQUIRE((*session)->setInput(1, roi.data(), 16).isOk());
  REQUIRE((*session)->setInput(2, far.data(), 8).isOk());
  CHECK(mentions((*session)->run(), "batch index 1"));
}

TEST_CASE("RoiAlign: hostile regions and attributes finish", "[ops][roi]") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float special[] = {nan, inf, -inf, 1e30f, -1e30f, 0.f, 3.5f, -0.5f, 1e-30f};
  std::mt19937 rng(99);
  Floats x(2 * 2 * 5 * 6, 1.f);
  for (int round = 0; round < 40; ++round) {
    Floats rois(8);
    for (auto& v : rois) v = special[rng() % 9];
    Params p;
    p.sr = static_cast<int64_t>(rng() % 3) * 64;  // 0, 64, 128
    p.max = rng() % 2;
    p.half_pixel = rng() % 2;
    p.scale = special[rng() % 9];
    if (!std::isfinite(p.scale)) p.scale = 2.f;
    const Floats got = run(x, {2, 2, 5, 6}, rois, {0, 1}, p);
    // On an image of ones, an average or a max of weighted ones never exceeds 1.
    for (float v : got) CHECK(!(v > 1.0001f));
  }
}
