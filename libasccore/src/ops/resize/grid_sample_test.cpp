// grid_sample_test.cpp: GridSample against values worked from the definition: an identity grid
// reproduces the image in every mode, bilinear blends neighbours, and the padding modes decide
// what a point outside the image reads.
#include <catch2/catch.hpp>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

namespace {
std::vector<float> sample(const std::vector<float>& img, int64_t H, int64_t W,
                          const std::vector<float>& grid, int64_t Ho, int64_t Wo,
                          const std::string& mode, const std::string& pad, int64_t align) {
  OpTester t("GridSample", 16);
  t.input(DType::F32, {1, 1, H, W}).input(DType::F32, {1, Ho, Wo, 2});
  t.attr("mode", mode).attr("padding_mode", pad).attr("align_corners", align);
  return runKernel<float>(t, {bytesOf(img), bytesOf(grid)});
}
}  // namespace

TEST_CASE("GridSample modes and padding", "[ops][resize]") {
  const std::vector<float> img = {1, 2, 3, 4, 5, 6};  // [2, 3]
  // With align_corners, x = -1, 0, 1 and y = -1, 1 are the pixel centres.
  std::vector<float> identity;
  for (float y : {-1.f, 1.f})
    for (float x : {-1.f, 0.f, 1.f}) {
      identity.push_back(x);
      identity.push_back(y);
    }
  for (const char* mode : {"bilinear", "nearest", "bicubic"}) {
    INFO(mode);
    const auto got = sample(img, 2, 3, identity, 2, 3, mode, "zeros", 1);
    for (size_t i = 0; i < img.size(); ++i) CHECK(got[i] == Approx(img[i]).margin(1e-5));
  }
  // Bilinear halfway between pixels (align_corners): x = -0.5 is between columns 0 and 1, y = 0
  // between the rows: (1 + 2 + 4 + 5) / 4.
  CHECK(sample(img, 2, 3, {-0.5f, 0.f}, 1, 1, "bilinear", "zeros", 1)[0] == Approx(3.0));
  // Outside the image (x = 2 -> column 3 with align_corners): zeros reads 0 for bilinear's
  // right taps, border clips to the last column, reflection mirrors to column 1.
  CHECK(sample(img, 2, 3, {2.f, -1.f}, 1, 1, "bilinear", "zeros", 1)[0] == Approx(0.0));
  CHECK(sample(img, 2, 3, {2.f, -1.f}, 1, 1, "bilinear", "border", 1)[0] == Approx(3.0));
  CHECK(sample(img, 2, 3, {2.f, -1.f}, 1, 1, "bilinear", "reflection", 1)[0] == Approx(2.0));
  // Without align_corners, -1 and 1 are the outer edges: x = 1 is column 2.5, so nearest rounds
  // it to even (2) and bilinear blends column 2 with the zero outside.
  CHECK(sample(img, 2, 3, {1.f, -0.5f}, 1, 1, "nearest", "zeros", 0)[0] == Approx(3.0));
  CHECK(sample(img, 2, 3, {1.f, -0.5f}, 1, 1, "bilinear", "zeros", 0)[0] == Approx(1.5));
  OpTester bad("GridSample", 16);
  bad.input(DType::F32, {1, 1, 2, 3}).input(DType::F32, {1, 2, 2, 3});
  CHECK(mentions(bad.run(), "grid"));
}
