// float8.h: the four 8-bit float formats of ONNX (opset 19; onnx.ai "Float stored in 8 bits"):
// E4M3FN and E5M2 (OCP FP8: E4M3FN has no infinity and one NaN pattern per sign, S.1111.111;
// E5M2 is IEEE-like, with infinities and NaNs at exponent 31) and their FNUZ variants (no
// infinity, no negative zero, one NaN 0x80, the exponent bias one higher). Conversions from
// float round to nearest, ties to even; `saturate` sends a finite value (or infinity) beyond
// the largest finite one to that value with its sign, otherwise to infinity (E5M2) or NaN.
#pragma once

#include <cstdint>

namespace asc {

enum class Float8Kind : uint8_t { E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ };

float float8ToFloat(uint8_t bits, Float8Kind kind);
uint8_t floatToFloat8(float value, Float8Kind kind, bool saturate);
/// The largest finite value: 448, 240, 57344, 57344.
float float8Max(Float8Kind kind);

}  // namespace asc
