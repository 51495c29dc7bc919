// float8.cpp: the 8-bit float codecs (float8.h). Each format is described by its exponent and
// mantissa widths, its bias and how it spells NaN and infinity; one encoder and one decoder
// serve all four.
#include "asc/support/float8.h"

#include <cmath>
#include <limits>

namespace asc {
namespace {

struct Format {
  int exp_bits, man_bits, bias;
  bool ieee_specials;  // E5M2: exponent all ones is infinity (mantissa 0) or NaN
  bool fnuz;           // 0x80 is the one NaN; no infinity, no negative zero
  uint8_t max_code;    // the largest finite value's code, sign clear
};

Format format(Float8Kind k) {
  switch (k) {
    case Float8Kind::E4M3FN:
      return {4, 3, 7, false, false, 0x7E};
    case Float8Kind::E4M3FNUZ:
      return {4, 3, 8, false, true, 0x7F};
    case Float8Kind::E5M2:
      return {5, 2, 15, true, false, 0x7B};
    case Float8Kind::E5M2FNUZ:
      break;
  }
  return {5, 2, 16, false, true, 0x7F};
}

// The magnitude of a code without its sign bit (no special values).
double magnitude(const Format& f, unsigned code) {
  const unsigned e = code >> f.man_bits, m = code & ((1u << f.man_bits) - 1);
  const double frac = static_cast<double>(m) / static_cast<double>(1u << f.man_bits);
  if (e == 0) return std::ldexp(frac, 1 - f.bias);  // subnormal
  return std::ldexp(1.0 + frac, static_cast<int>(e) - f.bias);
}

uint8_t nanCode(const Format& f, uint8_t sign) {
  if (f.fnuz) return 0x80;
  return static_cast<uint8_t>(sign | 0x7F);
}

}  // namespace

float float8Max(Float8Kind kind) {
  const Format f = format(kind);
  return static_cast<float>(magnitude(f, f.max_code));
}

float float8ToFloat(uint8_t bits, Float8Kind kind) {
  const Format f = format(kind);
  const bool neg = bits & 0x80;
  const unsigned code = bits & 0x7F;
  if (f.fnuz) {
    if (bits == 0x80) return std::numeric_limits<float>::quiet_NaN();
  } else if (f.ieee_specials) {
    if ((code >> f.man_bits) == (1u << f.exp_bits) - 1) {
      if ((code & ((1u << f.man_bits) - 1)) == 0)
        return neg ? -std::numeric_limits<float>::infinity()
                   : std::numeric_limits<float>::infinity();
      return std::numeric_limits<float>::quiet_NaN();
    }
  } else if (code == 0x7F) {
    return std::numeric_limits<float>::quiet_NaN();
  }
  const double v = magnitude(f, code);
  return static_cast<float>(neg ? -v : v);
}

uint8_t floatToFloat8(float value, Float8Kind kind, bool saturate) {
  const Format f = format(kind);
  const uint8_t sign = std::signbit(value) ? 0x80 : 0;
  if (std::isnan(value)) return nanCode(f, sign);
  const double a = std::fabs(static_cast<double>(value));
  const double max = magnitude(f, f.max_code);
  auto overflow = [&]() -> uint8_t {
    if (saturate) return static_cast<uint8_t>(sign | f.max_code);
    if (f.ieee_specials)
      return static_cast<uint8_t>(sign | (((1u << f.exp_bits) - 1) << f.man_bits));
    return nanCode(f, sign);
  };
  if (std::isinf(value)) return overflow();
  if (a == 0) return f.fnuz ? 0 : sign;
  // The spacing of representable values around a: 2^(exponent - man_bits), never below the
  // subnormal spacing. Dividing by a power of two is exact in double, and nearbyint rounds
  // half to even, so q is a's nearest multiple of the spacing, ties to an even mantissa.
  int exp2 = 0;
  std::frexp(a, &exp2);  // a = m * 2^exp2 with m in [0.5, 1)
  const int unbiased = std::max(exp2 - 1, 1 - f.bias);
  const int step = unbiased - f.man_bits;
  const double q = std::nearbyint(std::ldexp(a, -step));
  const double rounded = std::ldexp(q, step);
  if (rounded > max) return overflow();
  if (rounded == 0) return f.fnuz ? 0 : sign;
  // Encode the rounded magnitude: subnormal when below 2^(1 - bias).
  unsigned code;
  if (rounded < std::ldexp(1.0, 1 - f.bias)) {
    code = static_cast<unsigned>(std::ldexp(rounded, f.bias - 1 + f.man_bits));
  } else {
    int e2 = 0;
    const double m = std::frexp(rounded, &e2);  // rounded = m * 2^e2, m in [0.5, 1)
    const unsigned biased = static_cast<unsigned>(e2 - 1 + f.bias);
    const unsigned man = static_cast<unsigned>(std::ldexp(m * 2.0 - 1.0, f.man_bits));
    code = (biased << f.man_bits) | man;
  }
  return static_cast<uint8_t>(sign | code);
}

}  // namespace asc
