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
/// The same, and `src` rounded in place to the values stored: a kernel that computes in fp32
/// for an fp16 (bf16) output leaves its fp32 result for the consumers that read fp32, which must
/// see what the stored tensor holds, as on an NPU (an fp32 value past 65504 becomes inf).
void floatToHalfRounding(float* src, uint16_t* dst, size_t n);
void floatToBf16Rounding(float* src, uint16_t* dst, size_t n);

}  // namespace asc::cpu
