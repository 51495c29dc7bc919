// convert.h: bulk dtype conversions for "store in fp16, compute in fp32" (F16C; oneDNN 2.6's
// own f16 reorders are reference code and far slower on this CPU).
#pragma once

#include <cstddef>
#include <cstdint>

namespace asc::cpu {

void halfToFloat(const uint16_t* src, float* dst, size_t n);
void floatToHalf(const float* src, uint16_t* dst, size_t n);
void bf16ToFloat(const uint16_t* src, float* dst, size_t n);
void floatToBf16(const float* src, uint16_t* dst, size_t n);

}  // namespace asc::cpu
