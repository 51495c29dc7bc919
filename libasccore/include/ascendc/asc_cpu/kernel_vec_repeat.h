// kernel_vec_repeat.h: the vector instructions in their mask-and-repeat forms, as the NPU's vector
// unit runs them: each repeat handles 8 data blocks of 32 bytes (256 bytes: 64 floats or 128
// halves); the mask picks which elements of a repeat take part (a count, the first `mask`
// elements, or a bit mask: mask[0] for elements 0-63, mask[1] for 64-127 of 2-byte types); for
// every operand, data block b of repeat r starts at element (r * repStride + b * blkStride) * (32 /
// sizeof(T)), both strides in 32-byte blocks. Elements outside the mask are left as they are. Every
// operand's last touched element is checked against its tensor before any is written.
#pragma once

#include <cstdint>

#include "asc_cpu/kernel_vec.h"

namespace AscendC {

/// Strides of a two-source instruction (CANN's field names and defaults: blocks 1 apart within
/// a repeat, repeats 8 blocks apart, i.e. contiguous).
struct BinaryRepeatParams {
  BinaryRepeatParams() {}
  BinaryRepeatParams(uint8_t dst_blk, uint8_t src0_blk, uint8_t src1_blk, uint8_t dst_rep,
                     uint8_t src0_rep, uint8_t src1_rep)
      : dstBlkStride(dst_blk),
        src0BlkStride(src0_blk),
        src1BlkStride(src1_blk),
        dstRepStride(dst_rep),
        src0RepStride(src0_rep),
        src1RepStride(src1_rep) {}
  uint32_t blockNumber = 8;
  uint8_t dstBlkStride = 1;
  uint8_t src0BlkStride = 1;
  uint8_t src1BlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t src0RepStride = 8;
  uint8_t src1RepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

/// Strides of a one-source instruction.
struct UnaryRepeatParams {
  UnaryRepeatParams() {}
  UnaryRepeatParams(uint16_t dst_blk, uint16_t src_blk, uint8_t dst_rep, uint8_t src_rep)
      : dstBlkStride(dst_blk),
        srcBlkStride(src_blk),
        dstRepStride(dst_rep),
        srcRepStride(src_rep) {}
  uint32_t blockNumber = 8;
  uint16_t dstBlkStride = 1;
  uint16_t srcBlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t srcRepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

namespace detail_cpu {

/// Which elements of a repeat take part.
struct Mask {
  bool bits = false;
  uint64_t count = 0;
  uint64_t lo = 0, hi = 0;
  // Counter mode (the mask register's, SetMaskCount): `counter` elements over all repeats of
  // `per_repeat` each, the last repeat partial; 0 per_repeat: the mask of one repeat above.
  uint64_t counter = 0, per_repeat = 0;
  bool on(uint64_t e) const {
    if (!bits) return e < count;
    return e < 64 ? (lo >> e) & 1 : e < 128 ? (hi >> (e - 64)) & 1 : false;
  }
  /// Element e of repeat r.
  bool on(uint64_t r, uint64_t e) const {
    return per_repeat ? r * per_repeat + e < counter : on(e);
  }
};

template <typename T>
Mask countMask(const char* call, uint64_t mask) {
  constexpr uint64_t per_repeat = 256 / sizeof(T);
  if (mask < 1 || mask > per_repeat)
    asc::ascendc::detail::failf(call, "mask ", mask, " is outside 1..", per_repeat, " (the ",
                                sizeof(T), "-byte elements of one 256-byte repeat)");
  Mask m;
  m.count = mask;
  return m;
}

template <typename T>
Mask bitMask(const char* call, const uint64_t mask[]) {
  if (!mask) asc::ascendc::detail::failf(call, "the mask array is null");
  Mask m;
  m.bits = true;
  m.lo = mask[0];
  // A repeat holds 64 elements of 4 bytes: their mask is mask[0] alone (a one-element array).
  m.hi = sizeof(T) == 2 ? mask[1] : 0;
  if (m.lo == 0 && m.hi == 0) asc::ascendc::detail::failf(call, "the bit mask selects no element");
  return m;
}

/// Element offset of element `e` of repeat `r` for an operand with these strides.
template <typename T>
uint64_t at(uint64_t r, uint64_t e, uint64_t blk, uint64_t rep) {
  constexpr uint64_t per_block = 32 / sizeof(T);
  return (r * rep + (e / per_block) * blk) * per_block + e % per_block;
}

/// The mask register as an instruction with isSetMask false takes it: in counter mode its count
/// of elements, the repeats that many make (the repeat argument is not read, as on the NPU); in
/// normal mode its bits, for `*repeat` repeats.
template <typename T>
Mask registerMask(const char* call, uint64_t* repeat) {
  constexpr uint64_t per_repeat = 256 / sizeof(T);
  uint64_t hi = 0, lo = 0;
  asc::ascendc::detail::vectorMaskBits(&hi, &lo);
  Mask m;
  if (asc::ascendc::detail::vectorMaskMode()) {
    m.counter = lo;
    m.per_repeat = per_repeat;
    *repeat = (lo + per_repeat - 1) / per_repeat;
    return m;
  }
  m.bits = true;
  m.lo = lo;
  m.hi = sizeof(T) == 2 ? hi : 0;
  if (m.lo == 0 && m.hi == 0)
    asc::ascendc::detail::failf(call, "the mask register (SetVectorMask) selects no element");
  return m;
}
/// The mask of an instruction: its argument, or with isSetMask false the mask register.
template <typename T, bool isSetMask>
Mask takeMask(const char* call, uint64_t mask, uint64_t* repeat) {
  if constexpr (isSetMask) return countMask<T>(call, mask);
  return registerMask<T>(call, repeat);
}
template <typename T, bool isSetMask>
Mask takeMask(const char* call, const uint64_t mask[], uint64_t* repeat) {
  if constexpr (isSetMask) return bitMask<T>(call, mask);
  return registerMask<T>(call, repeat);
}

/// The highest element offset an operand reaches, plus one (0 when nothing is selected).
template <typename T>
uint64_t extent(const Mask& m, uint64_t repeat, uint64_t blk, uint64_t rep) {
  if (m.per_repeat) {
    if (m.counter == 0) return 0;
    return at<T>((m.counter - 1) / m.per_repeat, (m.counter - 1) % m.per_repeat, blk, rep) + 1;
  }
  uint64_t last = 0;
  bool any = false;
  for (uint64_t e = 0; e < 256 / sizeof(T); ++e)
    if (m.on(e)) {
      last = e;
      any = true;
    }
  if (!any || repeat == 0) return 0;
  // Offsets grow with r and with e, so the last selected element of the last repeat is furthest.
  return at<T>(repeat - 1, last, blk, rep) + 1;
}

template <typename T, typename F>
void binaryRepeat(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& a,
                  const LocalTensor<T>& b, const Mask& m, uint64_t repeat,
                  const BinaryRepeatParams& p, F f) {
  T* d = dst.ascData(call, "dst", extent<T>(m, repeat, p.dstBlkStride, p.dstRepStride));
  const T* x = a.ascData(call, "src0", extent<T>(m, repeat, p.src0BlkStride, p.src0RepStride));
  const T* y = b.ascData(call, "src1", extent<T>(m, repeat, p.src1BlkStride, p.src1RepStride));
  for (uint64_t r = 0; r < repeat; ++r)
    for (uint64_t e = 0; e < 256 / sizeof(T); ++e)
      if (m.on(r, e))
        d[at<T>(r, e, p.dstBlkStride, p.dstRepStride)] =
            T(f(CalcT<T>(x[at<T>(r, e, p.src0BlkStride, p.src0RepStride)]),
                CalcT<T>(y[at<T>(r, e, p.src1BlkStride, p.src1RepStride)])));
}

template <typename T, typename F>
void unaryRepeat(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                 const Mask& m, uint64_t repeat, const UnaryRepeatParams& p, F f) {
  T* d = dst.ascData(call, "dst", extent<T>(m, repeat, p.dstBlkStride, p.dstRepStride));
  const T* s = src.ascData(call, "src", extent<T>(m, repeat, p.srcBlkStride, p.srcRepStride));
  for (uint64_t r = 0; r < repeat; ++r)
    for (uint64_t e = 0; e < 256 / sizeof(T); ++e)
      if (m.on(r, e))
        d[at<T>(r, e, p.dstBlkStride, p.dstRepStride)] =
            T(f(CalcT<T>(s[at<T>(r, e, p.srcBlkStride, p.srcRepStride)])));
}

}  // namespace detail_cpu

// --- The mask register ---------------------------------------------------------------------
// An instruction given isSetMask false (Add<T, false>, WholeReduceSum<T, false>, ...) takes the
// mask set here instead of its argument (MASK_PLACEHOLDER by convention). In normal mode the
// register holds the bits of one repeat's elements; in counter mode (SetMaskCount) its low word
// counts the elements over all repeats, and the instruction runs as many repeats as those fill.
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER = 1 };
constexpr int32_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

inline void SetMaskCount() { asc::ascendc::detail::setVectorMaskMode(1); }
inline void SetMaskNorm() { asc::ascendc::detail::setVectorMaskMode(0); }
/// Both words (in counter mode, maskLow is the element count).
template <typename T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
  asc::ascendc::detail::setVectorMaskBits(maskHigh, maskLow);
}
/// The first len elements of a repeat (normal mode), or len elements in all (counter mode).
template <typename T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(int32_t len) {
  if (len < 0) asc::ascendc::detail::failf("SetVectorMask", "len ", len, " is negative");
  const uint64_t n = uint64_t(len);
  if (mode == MaskMode::COUNTER || asc::ascendc::detail::vectorMaskMode()) {
    asc::ascendc::detail::setVectorMaskBits(0, n);
    return;
  }
  if (n > 256 / sizeof(T))
    asc::ascendc::detail::failf("SetVectorMask", "len ", len, " is more than the ", 256 / sizeof(T),
                                " elements of one repeat");
  const auto ones = [](uint64_t k) { return k >= 64 ? ~uint64_t(0) : (uint64_t(1) << k) - 1; };
  asc::ascendc::detail::setVectorMaskBits(n > 64 ? ones(n - 64) : 0, ones(n));
}
/// Normal mode's full mask again.
inline void ResetMask() { asc::ascendc::detail::setVectorMaskBits(~uint64_t(0), ~uint64_t(0)); }

// Each instruction in both mask forms: a count (uint64_t mask) and a bit mask (uint64_t mask[2]).
#define ASC_CPU_BINARY_REPEAT(Name, ...)                                                        \
  template <typename T, bool isSetMask = true>                                                  \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,  \
            uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams& repeatParams) { \
    using C = detail_cpu::CalcT<T>;                                                             \
    uint64_t repeat = repeatTimes;                                                              \
    const detail_cpu::Mask m = detail_cpu::takeMask<T, isSetMask>(#Name, mask, &repeat);        \
    detail_cpu::binaryRepeat(#Name, dst, src0, src1, m, repeat, repeatParams,                   \
                             [](C a, C b) { return __VA_ARGS__; });                             \
  }                                                                                             \
  template <typename T, bool isSetMask = true>                                                  \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,  \
            const uint64_t mask[], const uint8_t repeatTimes,                                   \
            const BinaryRepeatParams& repeatParams) {                                           \
    using C = detail_cpu::CalcT<T>;                                                             \
    uint64_t repeat = repeatTimes;                                                              \
    const detail_cpu::Mask m = detail_cpu::takeMask<T, isSetMask>(#Name, mask, &repeat);        \
    detail_cpu::binaryRepeat(#Name, dst, src0, src1, m, repeat, repeatParams,                   \
                             [](C a, C b) { return __VA_ARGS__; });                             \
  }

ASC_CPU_BINARY_REPEAT(Add, a + b)
ASC_CPU_BINARY_REPEAT(Sub, a - b)
ASC_CPU_BINARY_REPEAT(Mul, a* b)
ASC_CPU_BINARY_REPEAT(Div, a / b)
ASC_CPU_BINARY_REPEAT(Max, detail_cpu::maxOf<T>(a, b))
ASC_CPU_BINARY_REPEAT(Min, detail_cpu::minOf<T>(a, b))
ASC_CPU_BINARY_REPEAT(And, T(T(a) & T(b)))  // int16_t / uint16_t, as the count form
ASC_CPU_BINARY_REPEAT(Or, T(T(a) | T(b)))
#undef ASC_CPU_BINARY_REPEAT

#define ASC_CPU_SCALAR_REPEAT(Name, ...)                                                  \
  template <typename T, bool isSetMask = true>                                            \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                         \
            const typename detail_cpu::Same<T>::type& scalarValue, uint64_t mask,         \
            const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {           \
    using C = detail_cpu::CalcT<T>;                                                       \
    const C s = C(scalarValue);                                                           \
    uint64_t repeat = repeatTimes;                                                        \
    const detail_cpu::Mask m = detail_cpu::takeMask<T, isSetMask>(#Name, mask, &repeat);  \
    detail_cpu::unaryRepeat(#Name, dst, src, m, repeat, repeatParams,                     \
                            [s](C a) { return __VA_ARGS__; });                            \
  }                                                                                       \
  template <typename T, bool isSetMask = true>                                            \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                         \
            const typename detail_cpu::Same<T>::type& scalarValue, const uint64_t mask[], \
            const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {           \
    using C = detail_cpu::CalcT<T>;                                                       \
    const C s = C(scalarValue);                                                           \
    uint64_t repeat = repeatTimes;                                                        \
    const detail_cpu::Mask m = detail_cpu::takeMask<T, isSetMask>(#Name, mask, &repeat);  \
    detail_cpu::unaryRepeat(#Name, dst, src, m, repeat, repeatParams,                     \
                            [s](C a) { return __VA_ARGS__; });                            \
  }

ASC_CPU_SCALAR_REPEAT(Adds, a + s)
ASC_CPU_SCALAR_REPEAT(Muls, a* s)
ASC_CPU_SCALAR_REPEAT(Maxs, detail_cpu::maxOf<T>(a, s))
ASC_CPU_SCALAR_REPEAT(Mins, detail_cpu::minOf<T>(a, s))
ASC_CPU_SCALAR_REPEAT(LeakyRelu, a >= C(0) ? a : a * s)
#undef ASC_CPU_SCALAR_REPEAT

#define ASC_CPU_UNARY_REPEAT(Name, ...)                                                  \
  template <typename T, bool isSetMask = true>                                           \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,         \
            const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {          \
    using C = detail_cpu::CalcT<T>;                                                      \
    uint64_t repeat = repeatTimes;                                                       \
    const detail_cpu::Mask m = detail_cpu::takeMask<T, isSetMask>(#Name, mask, &repeat); \
    detail_cpu::unaryRepeat(#Name, dst, src, m, repeat, repeatParams,                    \
                            [](C a) { return __VA_ARGS__; });                            \
  }                                                                                      \
  template <typename T, bool isSetMask = true>                                           \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], \
            const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {          \
    using C = detail_cpu::CalcT<T>;                                                      \
    uint64_t repeat = repeatTimes;                                                       \
    const detail_cpu::Mask m = detail_cpu::takeMask<T, isSetMask>(#Name, mask, &repeat); \
    detail_cpu::unaryRepeat(#Name, dst, src, m, repeat, repeatParams,                    \
                            [](C a) { return __VA_ARGS__; });                            \
  }

ASC_CPU_UNARY_REPEAT(Exp, C(std::exp(a)))
ASC_CPU_UNARY_REPEAT(Ln, C(std::log(a)))
ASC_CPU_UNARY_REPEAT(Abs, C(a < C(0) ? -a : a))
ASC_CPU_UNARY_REPEAT(Sqrt, C(std::sqrt(a)))
ASC_CPU_UNARY_REPEAT(Rsqrt, C(C(1) / std::sqrt(a)))
ASC_CPU_UNARY_REPEAT(Reciprocal, C(C(1) / a))
ASC_CPU_UNARY_REPEAT(Relu, C(a > C(0) ? a : C(0)))
#undef ASC_CPU_UNARY_REPEAT

/// dst = scalar on the selected elements; strides in 32-byte blocks.
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const typename detail_cpu::Same<T>::type& scalarValue,
               uint64_t mask, const uint8_t repeatTimes, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride) {
  uint64_t repeat = repeatTimes;
  const detail_cpu::Mask m = detail_cpu::takeMask<T, isSetMask>("Duplicate", mask, &repeat);
  T* d = dst.ascData("Duplicate", "dst",
                     detail_cpu::extent<T>(m, repeat, dstBlockStride, dstRepeatStride));
  for (uint64_t r = 0; r < repeat; ++r)
    for (uint64_t e = 0; e < 256 / sizeof(T); ++e)
      if (m.on(r, e)) d[detail_cpu::at<T>(r, e, dstBlockStride, dstRepeatStride)] = T(scalarValue);
}
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const typename detail_cpu::Same<T>::type& scalarValue,
               const uint64_t mask[], const uint8_t repeatTimes, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride) {
  uint64_t repeat = repeatTimes;
  const detail_cpu::Mask m = detail_cpu::takeMask<T, isSetMask>("Duplicate", mask, &repeat);
  T* d = dst.ascData("Duplicate", "dst",
                     detail_cpu::extent<T>(m, repeat, dstBlockStride, dstRepeatStride));
  for (uint64_t r = 0; r < repeat; ++r)
    for (uint64_t e = 0; e < 256 / sizeof(T); ++e)
      if (m.on(r, e)) d[detail_cpu::at<T>(r, e, dstBlockStride, dstRepeatStride)] = T(scalarValue);
}

}  // namespace AscendC
