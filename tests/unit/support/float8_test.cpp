// float8_test.cpp: the four float8 codecs against values from the ONNX float8 definition (the
// extremes, one, the smallest subnormal, the NaN and infinity codes) and against a brute-force
// reference: the nearest of all 256 decoded codes, ties to the even code.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "asc/support/float8.h"

using asc::Float8Kind;
using asc::float8ToFloat;
using asc::floatToFloat8;

namespace {
const Float8Kind kAll[] = {Float8Kind::E4M3FN, Float8Kind::E4M3FNUZ, Float8Kind::E5M2,
                           Float8Kind::E5M2FNUZ};

// The code nearest to x: the finite magnitude code nearest to |x| (ties to the even code),
// with x's sign unless that gives the FNUZ formats' NaN (they have no -0).
int nearestCode(float x, Float8Kind k) {
  const bool fnuz = k == Float8Kind::E4M3FNUZ || k == Float8Kind::E5M2FNUZ;
  const double a = std::fabs(static_cast<double>(x));
  int best = -1;
  double best_d = 0;
  for (int c = 0; c < 128; ++c) {
    const float v = float8ToFloat(static_cast<uint8_t>(c), k);
    if (!std::isfinite(v)) continue;
    const double d = std::fabs(v - a);
    if (best < 0 || d < best_d || (d == best_d && (c & 1) == 0)) {
      best = c;
      best_d = d;
    }
  }
  if (std::signbit(x) && !(fnuz && best == 0)) best |= 0x80;
  return best;
}
}  // namespace

TEST_CASE("float8 codes decode to the values ONNX defines", "[support][float8]") {
  // E4M3FN: bias 7, no infinity, S.1111.111 is NaN.
  CHECK(float8ToFloat(0x7E, Float8Kind::E4M3FN) == 448.f);
  CHECK(float8ToFloat(0xFE, Float8Kind::E4M3FN) == -448.f);
  CHECK(float8ToFloat(0x38, Float8Kind::E4M3FN) == 1.f);
  CHECK(float8ToFloat(0x01, Float8Kind::E4M3FN) == std::ldexp(1.f, -9));
  CHECK(std::isnan(float8ToFloat(0x7F, Float8Kind::E4M3FN)));
  CHECK(std::isnan(float8ToFloat(0xFF, Float8Kind::E4M3FN)));
  CHECK(std::signbit(float8ToFloat(0x80, Float8Kind::E4M3FN)));
  // E4M3FNUZ: bias 8, 0x80 the only NaN.
  CHECK(float8ToFloat(0x7F, Float8Kind::E4M3FNUZ) == 240.f);
  CHECK(float8ToFloat(0x40, Float8Kind::E4M3FNUZ) == 1.f);
  CHECK(float8ToFloat(0x01, Float8Kind::E4M3FNUZ) == std::ldexp(1.f, -10));
  CHECK(std::isnan(float8ToFloat(0x80, Float8Kind::E4M3FNUZ)));
  CHECK(float8ToFloat(0xFF, Float8Kind::E4M3FNUZ) == -240.f);
  // E5M2: IEEE-like.
  CHECK(float8ToFloat(0x7B, Float8Kind::E5M2) == 57344.f);
  CHECK(float8ToFloat(0x3C, Float8Kind::E5M2) == 1.f);
  CHECK(float8ToFloat(0x01, Float8Kind::E5M2) == std::ldexp(1.f, -16));
  CHECK(float8ToFloat(0x7C, Float8Kind::E5M2) == std::numeric_limits<float>::infinity());
  CHECK(float8ToFloat(0xFC, Float8Kind::E5M2) == -std::numeric_limits<float>::infinity());
  CHECK(std::isnan(float8ToFloat(0x7D, Float8Kind::E5M2)));
  // E5M2FNUZ: bias 16.
  CHECK(float8ToFloat(0x7F, Float8Kind::E5M2FNUZ) == 57344.f);
  CHECK(float8ToFloat(0x40, Float8Kind::E5M2FNUZ) == 1.f);
  CHECK(float8ToFloat(0x01, Float8Kind::E5M2FNUZ) == std::ldexp(1.f, -17));
  CHECK(std::isnan(float8ToFloat(0x80, Float8Kind::E5M2FNUZ)));
  for (auto k : kAll)
    CHECK(asc::float8Max(k) == float8ToFloat(k == Float8Kind::E4M3FN ? 0x7E
                                             : k == Float8Kind::E5M2 ? 0x7B
                                                                     : 0x7F,
                                             k));
}

TEST_CASE("every finite float8 code encodes back to itself", "[support][float8]") {
  for (auto k : kAll)
    for (int c = 0; c < 256; ++c) {
      const float v = float8ToFloat(static_cast<uint8_t>(c), k);
      if (!std::isfinite(v)) continue;
      INFO("kind " << static_cast<int>(k) << " code " << c);
      CHECK(floatToFloat8(v, k, true) == c);
      CHECK(floatToFloat8(v, k, false) == c);
    }
}

TEST_CASE("float to float8 rounds to the nearest code, ties to even", "[support][float8]") {
  std::mt19937 rng(7);
  for (auto k : kAll) {
    const float max = asc::float8Max(k);
    std::uniform_real_distribution<float> log2mag(-20.f, std::log2(max));
    for (int i = 0; i < 4000; ++i) {
      float x = std::exp2(log2mag(rng)) * ((i & 1) ? -1.f : 1.f);
      if (i % 7 == 0) {  // exact midpoints between neighbouring codes
        const int c = 1 + static_cast<int>(rng() % 120);
        x = 0.5f * (float8ToFloat(static_cast<uint8_t>(c), k) +
                    float8ToFloat(static_cast<uint8_t>(c + 1), k));
      }
      INFO("kind " << static_cast<int>(k) << " x " << x);
      CHECK(floatToFloat8(x, k, true) == nearestCode(x, k));
    }
    CHECK(floatToFloat8(std::ldexp(1.f, -30), k, true) == 0);  // underflow to zero
  }
  // -0 keeps its sign where the format has one; the FNUZ formats have no -0 (0x80 is NaN).
  CHECK(floatToFloat8(-0.f, Float8Kind::E4M3FN, true) == 0x80);
  CHECK(floatToFloat8(-0.f, Float8Kind::E4M3FNUZ, true) == 0x00);
  CHECK(floatToFloat8(-1e-30f, Float8Kind::E5M2FNUZ, true) == 0x00);
}

TEST_CASE("float8 overflow saturates or gives infinity or NaN", "[support][float8]") {
  const float inf = std::numeric_limits<float>::infinity();
  // E4M3FN: 464 is the midpoint of 448 and the first non-finite step (ties to 448's even code);
  // past it, saturate keeps 448, otherwise NaN.
  CHECK(floatToFloat8(464.f, Float8Kind::E4M3FN, false) == 0x7E);
  CHECK(floatToFloat8(465.f, Float8Kind::E4M3FN, false) == 0x7F);
  CHECK(floatToFloat8(465.f, Float8Kind::E4M3FN, true) == 0x7E);
  CHECK(floatToFloat8(-1e6f, Float8Kind::E4M3FN, true) == 0xFE);
  CHECK(floatToFloat8(-1e6f, Float8Kind::E4M3FN, false) == 0xFF);
  CHECK(floatToFloat8(inf, Float8Kind::E4M3FN, true) == 0x7E);
  CHECK(floatToFloat8(1e6f, Float8Kind::E5M2, true) == 0x7B);
  CHECK(floatToFloat8(1e6f, Float8Kind::E5M2, false) == 0x7C);
  CHECK(floatToFloat8(-inf, Float8Kind::E5M2, false) == 0xFC);
  CHECK(floatToFloat8(-inf, Float8Kind::E5M2, true) == 0xFB);
  CHECK(floatToFloat8(1e6f, Float8Kind::E4M3FNUZ, true) == 0x7F);
  CHECK(floatToFloat8(1e6f, Float8Kind::E4M3FNUZ, false) == 0x80);
  CHECK(floatToFloat8(-1e6f, Float8Kind::E5M2FNUZ, true) == 0xFF);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(floatToFloat8(nan, Float8Kind::E4M3FN, true) == 0x7F);
  CHECK(floatToFloat8(nan, Float8Kind::E5M2, true) == 0x7F);
  CHECK(floatToFloat8(nan, Float8Kind::E4M3FNUZ, true) == 0x80);
  CHECK(floatToFloat8(nan, Float8Kind::E5M2FNUZ, false) == 0x80);
}
