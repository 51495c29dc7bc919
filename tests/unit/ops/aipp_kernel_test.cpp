// aipp_kernel_test.cpp: the Aipp kernel (src/ops/aipp), run through the runtime as a one-node
// graph, against a naive reference written from the formulas of docs/aipp.md (the pixel's
// colour conversion, then crop, normalisation and padding), for the four input formats with crop,
// padding, the swaps and CSC; and shape inference's checks of the raw input.
#include <catch2/catch.hpp>

#include <random>

#include "asc/ops/registry.h"
#include "asc/runtime/session.h"
#include "ops/aipp/aipp_params.h"

using namespace asc;
using ops::aipp::Format;
using ops::aipp::Params;

namespace {

// The pixel (y, x) of the raw image after the swaps and CSC, as 4 ints (the reference's own
// reading of each format, kept apart from the kernel's).
std::vector<int> referencePixel(const Params& p, const std::vector<uint8_t>& img, int64_t n,
                                int64_t y, int64_t x) {
  const int64_t h = p.src_h, w = p.src_w;
  std::vector<int> px(4, 0);
  if (p.format == Format::Yuv420sp) {
    const int64_t base = n * h * w * 3 / 2;
    const int64_t uv_row = base + h * w + (y / 2) * w;
    const int64_t ucol = (x - x % 2);
    int u = img[uv_row + ucol], v = img[uv_row + ucol + 1];
    if (p.rbuv_swap) std::swap(u, v);
    px = {img[base + y * w + x], u, v, 0};
  } else if (p.format == Format::Yuv400) {
    px[0] = img[n * h * w + y * w + x];
  } else if (p.format == Format::Rgb888) {
    const int64_t at = ((n * h + y) * w + x) * 3;
    px = {img[at], img[at + 1], img[at + 2], 0};
    if (p.rbuv_swap) std::swap(px[0], px[2]);
  } else {
    const int64_t at = ((n * h + y) * w + x) * 4;
    std::vector<int> xrgb = {img[at], img[at + 1], img[at + 2], img[at + 3]};
    if (p.ax_swap) xrgb = {xrgb[1], xrgb[2], xrgb[3], xrgb[0]};
    if (p.rbuv_swap) std::swap(xrgb[0], xrgb[2]);
    px = xrgb;
  }
  if (p.csc) {
    std::vector<int> out = px;
    for (int i = 0; i < 3; ++i) {
      long acc = 0;
      for (int j = 0; j < 3; ++j) acc += long(p.matrix[i * 3 + j]) * (px[j] - p.input_bias[j]);
      // floor division by 256 is the arithmetic shift of the documented ">> 8"
      long v = (acc >= 0 ? acc / 256 : -((-acc + 255) / 256)) + p.output_bias[i];
      out[i] = int(std::min(255L, std::max(0L, v)));
    }
    px = out;
  }
  return px;
}

std::vector<float> reference(const Params& p, const std::vector<uint8_t>& img, int64_t batch) {
  const int64_t H = p.outH(), W = p.outW(), C = p.channels;
  std::vector<float> out(batch * C * H * W, p.pad_value);
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t y = 0; y < p.crop_h; ++y)
      for (int64_t x = 0; x < p.crop_w; ++x) {
        auto px = referencePixel(p, img, n, p.crop_y + y, p.crop_x + x);
        for (int64_t c = 0; c < C; ++c)
          out[((n * C + c) * H + y + p.pad_top) * W + x + p.pad_left] =
              (float(px[c]) - p.mean[c] - p.min[c]) * p.var_reci[c];
      }
  return out;
}

std::vector<float> runKernel(const Params& p, const std::vector<uint8_t>& img, int64_t batch) {
  ir::Graph g;
  ir::Value* raw = g.addValue("img");
  raw->dtype = ir::DType::U8;
  raw->shape = p.rawShape(batch);
  ir::Value* out = g.addValue("out");
  ir::Node* n = g.addNode("Aipp", "aipp", {raw}, {out});
  ops::aipp::toAttrs(p, &n->attrs);
  g.inputs = {raw};
  g.outputs = {out};
  REQUIRE(ops::inferGraph(g).isOk());
  REQUIRE(out->shape == ir::Shape{batch, p.channels, p.outH(), p.outW()});
  auto s = runtime::Session::fromGraph(std::move(g));
  REQUIRE(s.isOk());
  REQUIRE((*s)->setInput(0, img.data(), img.size()).isOk());
  REQUIRE((*s)->run().isOk());
  const float* o = static_cast<const float*>((*s)->outputData(0));
  return std::vector<float>(o, o + (*s)->outputs()[0].bytes / 4);
}

std::vector<uint8_t> randomImage(const Params& p, int64_t batch, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> img(static_cast<size_t>(ir::numElements(p.rawShape(batch))));
  for (auto& b : img) b = static_cast<uint8_t>(rng() & 0xff);
  return img;
}

void checkAgainstReference(const Params& p, int64_t batch, unsigned seed) {
  const auto img = randomImage(p, batch, seed);
  const auto got = runKernel(p, img, batch);
  const auto want = reference(p, img, batch);
  REQUIRE(got.size() == want.size());
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) bad += std::abs(got[i] - want[i]) > 1e-6f;
  CHECK(bad == 0);
}

Params base(Format f, int64_t h, int64_t w, int64_t c) {
  Params p;
  p.format = f;
  p.src_h = p.crop_h = h;
  p.src_w = p.crop_w = w;
  p.channels = c;
  return p;
}

const std::array<int32_t, 9> kJpegYuvToRgb = {256, 0, 359, 256, -88, -183, 256, 454, 0};

}  // namespace

TEST_CASE("Aipp YUV420SP with CSC and normalisation matches the reference", "[ops][aipp]") {
  Params p = base(Format::Yuv420sp, 6, 8, 3);
  p.csc = true;
  p.matrix = kJpegYuvToRgb;
  p.input_bias = {0, 128, 128};
  p.mean = {124, 117, 104, 0};
  p.min = {0.5f, 0.25f, 0, 0};
  p.var_reci = {0.017f, 0.0175f, 0.0174f, 1};
  checkAgainstReference(p, 1, 1);
  // NV21 (rbuv_swap_switch), a crop at even offsets, padding and two images.
  p.rbuv_swap = true;
  p.src_h = 10;
  p.src_w = 12;
  p.crop_y = 2;
  p.crop_x = 4;
  p.crop_h = 5;
  p.crop_w = 7;
  p.pad_top = 1;
  p.pad_left = 2;
  p.pad_right = 3;
  p.pad_value = -1.5f;
  checkAgainstReference(p, 2, 2);
  // RGB -> YUV style: output bias, no input bias; a negative matrix saturates at 0.
  p.matrix = {77, 150, 29, -43, -85, 128, 128, -107, -21};
  p.input_bias = {0, 0, 0};
  p.output_bias = {16, 128, 128};
  checkAgainstReference(p, 1, 3);
  // No CSC: the Y, U, V channels themselves.
  p.csc = false;
  checkAgainstReference(p, 1, 4);
}

TEST_CASE("Aipp RGB888, XRGB8888 and YUV400 match the reference", "[ops][aipp]") {
  Params rgb = base(Format::Rgb888, 9, 11, 3);
  rgb.rbuv_swap = true;
  rgb.crop_y = 1;
  rgb.crop_x = 3;
  rgb.crop_h = 7;
  rgb.crop_w = 5;
  rgb.pad_bottom = 2;
  rgb.pad_right = 1;
  rgb.pad_value = 0.25f;
  rgb.mean = {1, 2, 3, 0};
  rgb.var_reci = {0.5f, -2.f, 0.125f, 1};
  checkAgainstReference(rgb, 2, 5);
  rgb.channels = 1;  // a one-channel model takes the first channel
  checkAgainstReference(rgb, 1, 6);

  Params xrgb = base(Format::Xrgb8888, 5, 6, 3);
  xrgb.ax_swap = true;
  checkAgainstReference(xrgb, 1, 7);
  xrgb.rbuv_swap = true;
  xrgb.channels = 4;
  checkAgainstReference(xrgb, 1, 8);
  xrgb.ax_swap = false;
  xrgb.csc = true;  // RGB -> YUV on channels 0..2; channel 3 passes
  xrgb.matrix = {77, 150, 29, -43, -85, 128, 128, -107, -21};
  xrgb.output_bias = {16, 128, 128};
  checkAgainstReference(xrgb, 1, 9);

  Params gray = base(Format::Yuv400, 4, 7, 1);
  gray.mean = {128, 0, 0, 0};
  gray.min = {0.5f, 0, 0, 0};
  gray.var_reci = {1.f / 128, 1, 1, 1};
  gray.pad_top = gray.pad_left = 1;
  checkAgainstReference(gray, 3, 10);
}

TEST_CASE("Aipp shape inference checks the raw input", "[ops][aipp]") {
  Params p = base(Format::Yuv420sp, 4, 6, 3);
  auto tryShape = [&](ir::DType t, ir::Shape s, const Params& q) {
    ir::Graph g;
    ir::Value* raw = g.addValue("img");
    raw->dtype = t;
    raw->shape = std::move(s);
    ir::Value* out = g.addValue("out");
    ops::aipp::toAttrs(q, &g.addNode("Aipp", "aipp", {raw}, {out})->attrs);
    g.inputs = {raw};
    g.outputs = {out};
    return ops::inferGraph(g);
  };
  CHECK(tryShape(ir::DType::U8, {1, 6, 6, 1}, p).isOk());
  Status wrong = tryShape(ir::DType::U8, {1, 4, 6, 1}, p);
  CHECK(wrong.code() == ErrorCode::InvalidModel);
  CHECK(wrong.message().find("[1,6,6,1]") != std::string::npos);
  CHECK(tryShape(ir::DType::F32, {1, 6, 6, 1}, p).message().find("uint8") != std::string::npos);
  Params out_of_image = p;
  out_of_image.crop_x = 2;  // 2 + 6 > 6
  CHECK(tryShape(ir::DType::U8, {1, 6, 6, 1}, out_of_image).message().find("does not fit") !=
        std::string::npos);
  Params too_many = p;
  too_many.channels = 4;
  CHECK(tryShape(ir::DType::U8, {1, 6, 6, 1}, too_many).message().find("channels") !=
        std::string::npos);
  const ops::OpDef* d = ops::lookup("Aipp");
  REQUIRE(d);
  CHECK(d->isInternal());
  CHECK(d->cannType() == "Aipp");
}
