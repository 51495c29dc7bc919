// quant_test.cpp: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger and
// QLinearMatMul against the ONNX definitions (halves round to even, saturation, per-axis
// parameters), and folding.
#include <catch2/catch.hpp>

#include <cmath>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("QuantizeLinear rounds halves to even and saturates", "[ops][quant]") {
  const std::vector<float> x = {0, 2, 3, 1000, -254, -1000, 5, 7};  // scale 2: halves at 2.5...
  const std::vector<float> scale = {2};
  OpTester u("QuantizeLinear", 13);
  u.input(DType::F32, {8}).input(DType::F32, {}).input(DType::U8, {});
  // x/2 = 0, 1, 1.5->2, 500, -127, -500, 2.5->2, 3.5->4; + 128, saturated to [0, 255]
  CHECK(runKernel<uint8_t>(u, {bytesOf(x), bytesOf(scale), bytesOf(std::vector<uint8_t>{128})}) ==
        std::vector<uint8_t>{128, 129, 130, 255, 1, 0, 130, 132});
  OpTester s("QuantizeLinear", 13);
  s.input(DType::F32, {8}).input(DType::F32, {}).input(DType::I8, {});
  CHECK(runKernel<int8_t>(s, {bytesOf(x), bytesOf(scale), bytesOf(std::vector<int8_t>{-1})}) ==
        std::vector<int8_t>{-1, 0, 1, 127, -128, -128, 1, 3});
  OpTester none("QuantizeLinear", 13);  // no zero point: uint8 with 0
  none.input(DType::F32, {8}).input(DType::F32, {});
  CHECK(runKernel<uint8_t>(none, {bytesOf(x), bytesOf(scale)}) ==
        std::vector<uint8_t>{0, 1, 2, 255, 0, 0, 2, 4});
}

TEST_CASE("per-axis QuantizeLinear and DequantizeLinear", "[ops][quant]") {
  // x [1, 3, 2]; one scale and zero point per channel (axis 1).
  const std::vector<float> x = {-2, 4, 3, 9, 10, 20};
  const std::vector<float> scale = {2, 3, 5};
  const std::vector<uint8_t> zp = {10, 0, 1};
  std::vector<uint8_t> want(6);
  for (int i = 0; i < 6; ++i) {
    const int c = i / 2;
    const float q = std::nearbyint(x[i] / scale[c]) + zp[c];
    want[i] = static_cast<uint8_t>(std::fmin(255.f, std::fmax(0.f, q)));
  }
  OpTester q("QuantizeLinear", 13);
  q.input(DType::F32, {1, 3, 2}).input(DType::F32, {3}).input(DType::U8, {3});
  CHECK(runKernel<uint8_t>(q, {bytesOf(x), bytesOf(scale), bytesOf(zp)}) == want);
  OpTester d("DequantizeLinear", 13);
  d.input(DType::U8, {1, 3, 2}).input(DType::F32, {3}).input(DType::U8, {3});
  auto back = runKernel<float>(d, {bytesOf(want), bytesOf(scale), bytesOf(zp)});
  for (int i = 0; i < 6; ++i) CHECK(back[i] == (float(want[i]) - zp[i / 2]) * scale[i / 2]);
  OpTester di("DequantizeLinear", 13);  // int32 without a zero point
  di.input(DType::I32, {3}).input(DType::F32, {});
  CHECK(runKernel<float>(
            di, {bytesOf(std::vector<int32_t>{-5, 0, 7}), bytesOf(std::vector<float>{0.5f})}) ==
        std::vector<float>{-2.5f, 0, 3.5f});
  OpTester bad("QuantizeLinear", 13);
  bad.input(DType::F32, {1, 3, 2}).input(DType::F32, {2});
  CHECK(mentions(bad.run(), "scale has 2 values"));
  OpTester f("DequantizeLinear", 13);
  const std::vector<int8_t> w = {-3, 4};
  const float sc = 0.25f;
  f.constant(DType::I8, {2}, w.data(), 2).constant(DType::F32, {}, &sc, 4);
  REQUIRE(f.run().isOk());
  REQUIRE(f.out().isConstant());
  CHECK(asc::test::doublesOf(f.out()) == std::vector<double>{-0.75, 1.0});
}

TEST_CASE("DynamicQuantizeLinear derives scale and zero point from the range", "[ops][quant]") {
  const std::vector<float> x = {0, 2, -3, -2.5f, 1.34f, 0.5f};
  const float lo = -3, hi = 2, scale = (hi - lo) / 255;
  const float zpf = std::fmin(255.f, std::fmax(0.f, std::nearbyint(-lo / scale)));
  auto run = [] {
    OpTester t("DynamicQuantizeLinear", 11);
    t.input(DType::F32, {2, 3}).outputs(3);
    return t;
  };
  OpTester ty = run();
  auto y = runKernel<uint8_t>(ty, {bytesOf(x)}, 0);
  for (size_t i = 0; i < x.size(); ++i) {
    const float q = std::fmin(255.f, std::fmax(0.f, std::nearbyint(x[i] / scale) + zpf));
    CHECK(y[i] == static_cast<uint8_t>(q));
  }
  OpTester ts = run();
  CHECK(runKernel<float>(ts, {bytesOf(x)}, 1)[0] == Approx(scale));
  OpTester tz = run();
  CHECK(runKernel<uint8_t>(tz, {bytesOf(x)}, 2)[0] == static_cast<uint8_t>(zpf));
}

TEST_CASE("MatMulInteger and QLinearMatMul", "[ops][quant]") {
  // A [2, 3] uint8 with zero point 1, B [3, 2] int8 with zero point -1.
  const std::vector<uint8_t> a = {1, 2, 3, 4, 5, 6};
  const std::vector<int8_t> b = {0, 1, -1, 2, 3, -2};
  std::vector<int32_t> want(4);
  for (int m = 0; m < 2; ++m)
    for (int n = 0; n < 2; ++n) {
      int32_t s = 0;
      for (int k = 0; k < 3; ++k) s += (a[m * 3 + k] - 1) * (b[k * 2 + n] + 1);
      want[m * 2 + n] = s;
    }
  OpTester mi("MatMulInteger", 10);
  mi.input(DType::U8, {2, 3}).input(DType::I8, {3, 2}).input(DType::U8, {}).input(DType::I8, {});
  CHECK(runKernel<int32_t>(mi, {bytesOf(a), bytesOf(b), bytesOf(std::vector<uint8_t>{1}),
                                bytesOf(std::vector<int8_t>{-1})}) == want);
  // QLinearMatMul: the same product times 0.5 * 0.25 / 0.1, rounded, plus 3, as uint8.
  OpTester q("QLinearMatMul", 10);
  q.input(DType::U8, {2, 3}).input(DType::F32, {}).input(DType::U8, {});
  q.input(DType::I8, {3, 2}).input(DType::F32, {}).input(DType::I8, {});
  q.input(DType::F32, {}).input(DType::U8, {});
  auto got = runKernel<uint8_t>(
      q, {bytesOf(a), bytesOf(std::vector<float>{0.5f}), bytesOf(std::vector<uint8_t>{1}),
          bytesOf(b), bytesOf(std::vector<float>{0.25f}), bytesOf(std::vector<int8_t>{-1}),
          bytesOf(std::vector<float>{0.1f}), bytesOf(std::vector<uint8_t>{3})});
  for (int i = 0; i < 4; ++i) {
    const float v = std::nearbyint(static_cast<float>(want[i]) * 0.125f / 0.1f) + 3.f;
    CHECK(got[i] == static_cast<uint8_t>(std::fmin(255.f, std::fmax(0.f, v))));
  }
  OpTester bad("MatMulInteger", 10);
  bad.input(DType::U8, {2, 3}).input(DType::U8, {2, 2});
  CHECK(mentions(bad.run(), "inner dims"));
  OpTester shape("MatMulInteger", 10);  // batch broadcast
  shape.input(DType::U8, {4, 1, 2, 3}).input(DType::U8, {5, 3, 6});
  REQUIRE(shape.run().isOk());
  CHECK(shape.out().shape == ir::Shape{4, 5, 2, 6});
}

TEST_CASE("QuantizeLinear-21 to int4/uint4 and DequantizeLinear from them", "[ops][quant]") {
  const std::vector<float> x = {0, 3, -3, 100, -100, 5, -17, 9};
  const std::vector<float> scale = {2};
  // x/2 = 0, 1.5->2, -1.5->-2, 50, -50, 2.5->2, -8.5->-8, 4.5->4; + zp, clamped to the type
  OpTester s("QuantizeLinear", 21);
  s.input(DType::F32, {8}).input(DType::F32, {}).input(DType::I4, {});
  CHECK(runKernel<int8_t>(s, {bytesOf(x), bytesOf(scale), bytesOf(std::vector<int8_t>{-1})}) ==
        std::vector<int8_t>{-1, 1, -3, 7, -8, 1, -8, 3});
  OpTester u("QuantizeLinear", 21);
  u.input(DType::F32, {8}).input(DType::F32, {}).attr("output_dtype", int64_t{21});  // uint4
  CHECK(runKernel<uint8_t>(u, {bytesOf(x), bytesOf(scale)}) ==
        std::vector<uint8_t>{0, 2, 0, 15, 0, 2, 0, 4});
  OpTester d("DequantizeLinear", 21);
  d.input(DType::I4, {4}).input(DType::F32, {}).input(DType::I4, {});
  CHECK(runKernel<float>(d, {bytesOf(std::vector<int8_t>{-8, 7, 0, -1}), bytesOf(scale),
                             bytesOf(std::vector<int8_t>{-1})}) ==
        std::vector<float>{-14, 16, 2, 0});
}

TEST_CASE("QuantizeLinear-19 to float8 rounds, saturates, and DequantizeLinear reads it",
          "[ops][quant]") {
  const std::vector<float> x = {1, 3, 1000, -1000, 0.1f};
  const std::vector<float> scale = {0.5f};
  // x/0.5 = 2, 6, 2000, -2000, 0.2: E4M3FN codes 0x40, 0x4C, 448 = 0x7E (saturated), 0xFE and
  // 0.203125 = 0x25 (nearest); without saturation 2000 is NaN (0x7F).
  OpTester q("QuantizeLinear", 19);
  q.input(DType::F32, {5}).input(DType::F32, {}).input(DType::F8E4M3FN, {});
  CHECK(runKernel<uint8_t>(q, {bytesOf(x), bytesOf(scale), bytesOf(std::vector<uint8_t>{0})}) ==
        std::vector<uint8_t>{0x40, 0x4C, 0x7E, 0xFE, 0x25});
  OpTester n("QuantizeLinear", 19);
  n.input(DType::F32, {5})
      .input(DType::F32, {})
      .input(DType::F8E4M3FN, {})
      .attr("saturate", int64_t{0});
  CHECK(runKernel<uint8_t>(n, {bytesOf(x), bytesOf(scale), bytesOf(std::vector<uint8_t>{0})}) ==
        std::vector<uint8_t>{0x40, 0x4C, 0x7F, 0xFF, 0x25});
  OpTester d("DequantizeLinear", 19);
  d.input(DType::F8E5M2, {3}).input(DType::F32, {});
  // E5M2 0x3C = 1, 0x7B = 57344, 0xC0 = -2
  CHECK(runKernel<float>(d, {bytesOf(std::vector<uint8_t>{0x3C, 0x7B, 0xC0}), bytesOf(scale)}) ==
        std::vector<float>{0.5f, 28672.f, -1.f});
}

TEST_CASE("an operator that does not compute float8 or int4 refuses them by name", "[ops][quant]") {
  OpTester t("Relu", 21);
  t.input(DType::F8E4M3FN, {4});
  const Status s = t.run();
  CHECK_FALSE(s.isOk());
  CHECK(mentions(s, "float8_e4m3fn"));
  CHECK(mentions(s, "Cast"));
}

TEST_CASE("QuantizeLinear-23 precision: x / scale in float16 or bfloat16", "[ops][quant]") {
  // 1000.3 / 0.1 to int16. In fp32: 10003. In float16: 1000.5 / 0.0999755859375 = 10007.44,
  // rounded to float16 (steps of 8 there): 10008. In bfloat16: 1000 / 0.10009765625 = 9990.2,
  // rounded to bfloat16 (steps of 64): 9984. Worked by hand; numpy's float16 division agrees.
  const std::vector<float> x = {1000.3f}, scale = {0.1f};
  const std::vector<int16_t> zp = {0};
  auto quantize = [&](int64_t precision) {
    OpTester q("QuantizeLinear", 23);
    q.input(DType::F32, {1}).input(DType::F32, {}).input(DType::I16, {});
    q.attr("precision", precision);
    return runKernel<int16_t>(q, {bytesOf(x), bytesOf(scale), bytesOf(zp)});
  };
  CHECK(quantize(0) == std::vector<int16_t>{10003});
  CHECK(quantize(1) == std::vector<int16_t>{10003});
  CHECK(quantize(10) == std::vector<int16_t>{10008});
  CHECK(quantize(16) == std::vector<int16_t>{9984});
  OpTester bad("QuantizeLinear", 23);
  bad.input(DType::F32, {1}).input(DType::F32, {}).input(DType::I16, {});
  bad.attr("precision", int64_t{11});
  CHECK(mentions(bad.run(), "precision 11 is not supported"));
}
