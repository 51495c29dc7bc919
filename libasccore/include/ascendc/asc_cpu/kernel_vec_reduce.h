// kernel_vec_reduce.h: the per-repeat reductions in their mask-and-repeat forms (the addressing
// of kernel_vec_repeat.h on the source side). WholeReduceSum gives one sum per repeat,
// WholeReduceMax/Min one extreme and its index per repeat,
// BlockReduceSum/Max/Min one value per 32-byte data block (8 per repeat), PairReduceSum the sums
// of adjacent pairs (half a repeat). The destination's repeat stride counts what one repeat
// reduces to (1, 8 or 256 / sizeof(T) / 2 elements); it has no block stride. Sums add pairwise
// in a binary tree in the element type, as the vector unit does; a half sum that overflows
// saturates at +-65504. Elements outside the mask take no part (a block with none sums to 0).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "asc_cpu/kernel_vec_repeat.h"

namespace AscendC {
namespace detail_cpu {

/// a + b rounded to T; a half result saturates at +-65504 instead of overflowing.
template <typename T>
CalcT<T> addInType(CalcT<T> a, CalcT<T> b) {
  CalcT<T> s = a + b;
  if constexpr (std::is_same_v<T, half>) {
    if (s > 65504.f) s = 65504.f;
    if (s < -65504.f) s = -65504.f;
  }
  return CalcT<T>(T(s));
}

/// Pairwise sum of v (its length a power of two), level by level.
template <typename T>
CalcT<T> treeSum(std::vector<CalcT<T>> v) {
  while (v.size() > 1) {
    for (size_t i = 0; i < v.size() / 2; ++i) v[i] = addInType<T>(v[2 * i], v[2 * i + 1]);
    v.resize(v.size() / 2);
  }
  return v.empty() ? CalcT<T>(0) : v[0];
}

/// The sums of whole repeats reduced to one: as ReduceSum's second pass does, the repeat sums
/// are a new source, summed 256 bytes at a time in a tree, until one value is left.
template <typename T>
CalcT<T> treeOfRepeats(std::vector<CalcT<T>> sums) {
  constexpr size_t per_repeat = 256 / sizeof(T);
  while (sums.size() > 1) {
    std::vector<CalcT<T>> next;
    for (size_t at = 0; at < sums.size(); at += per_repeat) {
      std::vector<CalcT<T>> v(per_repeat, CalcT<T>(0));
      for (size_t k = 0; k < per_repeat && at + k < sums.size(); ++k) v[k] = sums[at + k];
      next.push_back(treeSum<T>(std::move(v)));
    }
    sums = std::move(next);
  }
  return sums.empty() ? CalcT<T>(0) : sums[0];
}
/// Whether the chip adds the repeat sums of ReduceSum's count form one after another (Atlas A2
/// and A3: Ascend910B*, Ascend910_93*) rather than in a second tree (every other chip).
inline bool sequentialRepeatSums() {
  const std::string soc = asc::ascendc::detail::socName();
  return soc.rfind("Ascend910B", 0) == 0 || soc.rfind("Ascend910_93", 0) == 0;
}

template <typename T>
void checkRepeat(const char* call, int32_t repeat, const Mask& m) {
  if (m.per_repeat) return;  // counter mode: the count decides the repeats
  if (repeat < 0 || repeat > 255)
    asc::ascendc::detail::failf(call, "repeatTime ", repeat, " is outside 0..255");
}

/// The checked source and destination of a per-repeat reduction whose repeats each write
/// `out_per_repeat` elements, dstRepStride of those apart.
template <typename T>
std::pair<const T*, T*> reduceOperands(const char* call, const LocalTensor<T>& dst,
                                       const LocalTensor<T>& src, const Mask& m, int32_t repeat,
                                       int32_t dstRepStride, int32_t srcBlkStride,
                                       int32_t srcRepStride, uint64_t out_per_repeat) {
  checkRepeat<T>(call, repeat, m);
  if (dstRepStride < 0 || srcBlkStride < 0 || srcRepStride < 0)
    asc::ascendc::detail::failf(call, "strides must not be negative");
  const T* s = src.ascData(call, "src", extent<T>(m, uint64_t(repeat), srcBlkStride, srcRepStride));
  const uint64_t dst_extent =
      repeat ? (uint64_t(repeat) - 1) * uint64_t(dstRepStride) * out_per_repeat + out_per_repeat
             : 0;
  return {s, dst.ascData(call, "dst", dst_extent)};
}

/// kind: 0 WholeReduceSum, 1 BlockReduceSum, 2 BlockReduceMax, 3 BlockReduceMin, 4 PairReduceSum.
template <typename T>
void reduceRepeat(const char* call, int kind, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                  const Mask& m, int32_t repeat, int32_t dstRepStride, int32_t srcBlkStride,
                  int32_t srcRepStride) {
  constexpr uint64_t per_block = 32 / sizeof(T), per_repeat = 256 / sizeof(T);
  const uint64_t out_per_repeat = kind == 0 ? 1 : kind == 4 ? per_repeat / 2 : 8;
  const auto operands = reduceOperands(call, dst, src, m, repeat, dstRepStride, srcBlkStride,
                                       srcRepStride, out_per_repeat);
  const T* s = operands.first;
  T* d = operands.second;
  using C = CalcT<T>;
  for (uint64_t r = 0; r < uint64_t(repeat); ++r) {
    auto value = [&](uint64_t e) {
      return m.on(r, e) ? C(s[at<T>(r, e, srcBlkStride, srcRepStride)]) : C(0);
    };
    T* out = d + r * uint64_t(dstRepStride) * out_per_repeat;
    if (kind == 0) {
      std::vector<C> v(per_repeat);
      for (uint64_t e = 0; e < per_repeat; ++e) v[e] = value(e);
      out[0] = T(treeSum<T>(v));
    } else if (kind == 4) {
      for (uint64_t k = 0; k < per_repeat / 2; ++k)
        out[k] = T(addInType<T>(value(2 * k), value(2 * k + 1)));
    } else {
      for (uint64_t b = 0; b < 8; ++b) {
        if (kind == 1) {
          std::vector<C> v(per_block);
          for (uint64_t k = 0; k < per_block; ++k) v[k] = value(b * per_block + k);
          out[b] = T(treeSum<T>(v));
          continue;
        }
        bool any = false;
        C best = C(0);
        for (uint64_t k = 0; k < per_block; ++k) {
          const uint64_t e = b * per_block + k;
          if (!m.on(r, e)) continue;
          const C x = C(s[at<T>(r, e, srcBlkStride, srcRepStride)]);
          best = !any ? x : kind == 2 ? maxOf<T>(best, x) : minOf<T>(best, x);
          any = true;
        }
        out[b] = T(best);
      }
    }
  }
}

}  // namespace detail_cpu

namespace detail_cpu {
/// A reduction with its mask argument, or with isSetMask false the mask register (whose counter
/// mode decides the repeats).
template <typename T, bool isSetMask, typename M>
void reduceWith(const char* call, int kind, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                M mask, int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride,
                int32_t srcRepStride) {
  // A negative repeatTime stays negative through the round trip: reduceRepeat refuses it.
  uint64_t repeat = static_cast<uint64_t>(static_cast<int64_t>(repeatTime));
  const Mask m = takeMask<T, isSetMask>(call, mask, &repeat);
  reduceRepeat(call, kind, dst, src, m, int32_t(repeat), dstRepStride, srcBlkStride, srcRepStride);
}
}  // namespace detail_cpu

// WholeReduceSum takes the mask before the repeat count; the others take it after (CANN's order).
// With isSetMask false the mask register selects (SetVectorMask; kernel_vec_repeat.h).
template <typename T, bool isSetMask = true>
void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,
                    const int32_t repeatTime, const int32_t dstRepStride,
                    const int32_t srcBlkStride, const int32_t srcRepStride) {
  detail_cpu::reduceWith<T, isSetMask>("WholeReduceSum", 0, dst, src, uint64_t(mask), repeatTime,
                                       dstRepStride, srcBlkStride, srcRepStride);
}
template <typename T, bool isSetMask = true>
void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                    const int32_t repeatTime, const int32_t dstRepStride,
                    const int32_t srcBlkStride, const int32_t srcRepStride) {
  detail_cpu::reduceWith<T, isSetMask>("WholeReduceSum", 0, dst, src, mask, repeatTime,
                                       dstRepStride, srcBlkStride, srcRepStride);
}

#define ASC_CPU_REDUCE_REPEAT(Name, kind)                                                       \
  template <typename T, bool isSetMask = true>                                                  \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,     \
            const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,         \
            const int32_t srcRepStride) {                                                       \
    detail_cpu::reduceWith<T, isSetMask>(#Name, kind, dst, src, uint64_t(mask), repeatTime,     \
                                         dstRepStride, srcBlkStride, srcRepStride);             \
  }                                                                                             \
  template <typename T, bool isSetMask = true>                                                  \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,     \
            const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,      \
            const int32_t srcRepStride) {                                                       \
    detail_cpu::reduceWith<T, isSetMask>(#Name, kind, dst, src, mask, repeatTime, dstRepStride, \
                                         srcBlkStride, srcRepStride);                           \
  }

ASC_CPU_REDUCE_REPEAT(BlockReduceSum, 1)
ASC_CPU_REDUCE_REPEAT(BlockReduceMax, 2)
ASC_CPU_REDUCE_REPEAT(BlockReduceMin, 3)
ASC_CPU_REDUCE_REPEAT(PairReduceSum, 4)
#undef ASC_CPU_REDUCE_REPEAT

// --- WholeReduceMax and WholeReduceMin: the extreme of each repeat, with its index -------------
/// What each repeat writes: its extreme and index (ORDER_VALUE_INDEX), the other way round, or
/// one of them.
enum class ReduceOrder : uint8_t {
  ORDER_VALUE_INDEX = 0,
  ORDER_INDEX_VALUE,
  ORDER_ONLY_VALUE,
  ORDER_ONLY_INDEX
};

namespace detail_cpu {
/// One (value, index) per repeat: the masked extreme (the first on ties) and its element index
/// within the repeat, stored as bits as ReduceMax's calIndex does. The destination's repeat
/// stride counts what one repeat writes (2 elements, 1 for the ONLY orders); that unit is
/// UNCONFIRMED for the ONLY orders.
template <typename T, bool kMax>
void wholeReduceExtreme(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                        const Mask& m, int32_t repeat, int32_t dstRepStride, int32_t srcBlkStride,
                        int32_t srcRepStride, ReduceOrder order) {
  constexpr uint64_t per_repeat = 256 / sizeof(T);
  const bool pair =
      order == ReduceOrder::ORDER_VALUE_INDEX || order == ReduceOrder::ORDER_INDEX_VALUE;
  const uint64_t out_per_repeat = pair ? 2 : 1;
  const auto operands = reduceOperands(call, dst, src, m, repeat, dstRepStride, srcBlkStride,
                                       srcRepStride, out_per_repeat);
  const T* s = operands.first;
  T* d = operands.second;
  using C = CalcT<T>;
  for (uint64_t r = 0; r < uint64_t(repeat); ++r) {
    int64_t best = -1;
    C best_v = C(0);
    for (uint64_t e = 0; e < per_repeat; ++e) {
      if (!m.on(e)) continue;
      const C x = C(s[at<T>(r, e, srcBlkStride, srcRepStride)]);
      if (best < 0 || (kMax ? x > best_v : x < best_v)) {
        best = int64_t(e);
        best_v = x;
      }
    }
    T* out = d + r * uint64_t(dstRepStride) * out_per_repeat;
    const T value = T(best_v);
    switch (order) {
      case ReduceOrder::ORDER_VALUE_INDEX:
        out[0] = value;
        storeIndexBits(&out[1], best);
        break;
      case ReduceOrder::ORDER_INDEX_VALUE:
        storeIndexBits(&out[0], best);
        out[1] = value;
        break;
      case ReduceOrder::ORDER_ONLY_VALUE:
        out[0] = value;
        break;
      case ReduceOrder::ORDER_ONLY_INDEX:
        storeIndexBits(&out[0], best);
        break;
    }
  }
}
}  // namespace detail_cpu

#define ASC_CPU_WHOLE_REDUCE_EXTREME(Name, kMax)                                                  \
  template <typename T, bool isSetMask = true>                                                    \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,             \
            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,     \
            const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {     \
    detail_cpu::wholeReduceExtreme<T, kMax>(                                                      \
        #Name, dst, src, detail_cpu::countMask<T>(#Name, uint64_t(mask)), repeatTime,             \
        dstRepStride, srcBlkStride, srcRepStride, order);                                         \
  }                                                                                               \
  template <typename T, bool isSetMask = true>                                                    \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],          \
            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,     \
            const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {     \
    detail_cpu::wholeReduceExtreme<T, kMax>(#Name, dst, src, detail_cpu::bitMask<T>(#Name, mask), \
                                            repeatTime, dstRepStride, srcBlkStride, srcRepStride, \
                                            order);                                               \
  }
ASC_CPU_WHOLE_REDUCE_EXTREME(WholeReduceMax, true)
ASC_CPU_WHOLE_REDUCE_EXTREME(WholeReduceMin, false)
#undef ASC_CPU_WHOLE_REDUCE_EXTREME

// --- the mask/repeat forms of ReduceSum, ReduceMax and ReduceMin
// ----------------------------------
namespace detail_cpu {
/// Calls f(index, value) for the masked elements of `repeatTime` repeats of 256 bytes of src,
/// srcRepStride 32-byte blocks apart, in order.
template <typename T, typename F>
void forMaskedRepeats(const char* call, const LocalTensor<T>& src, const Mask& m,
                      int32_t repeatTime, int32_t srcRepStride, F f) {
  constexpr int64_t per_repeat = 256 / sizeof(T), per_block = 32 / sizeof(T);
  if (repeatTime < 1 || repeatTime > 255)
    asc::ascendc::detail::failf(call, "repeatTime ", repeatTime, " is outside 1..255");
  if (srcRepStride < 0)
    asc::ascendc::detail::failf(call, "srcRepStride ", srcRepStride, " is negative");
  int64_t last = -1;  // the highest element a repeat selects
  for (int64_t e = 0; e < per_repeat; ++e)
    if (m.on(uint64_t(e))) last = e;
  const int64_t step = int64_t(srcRepStride) * per_block;
  const T* s = src.ascData(call, "src", uint32_t((repeatTime - 1) * step + last + 1));
  for (int64_t r = 0; r < repeatTime; ++r)
    for (int64_t e = 0; e <= last; ++e)
      if (m.on(uint64_t(e))) f(r * step + e, s[r * step + e]);
}

/// The mask/repeat form of ReduceSum: each repeat's masked elements in a tree (the others 0),
/// then the repeat sums in a second tree.
template <typename T>
void reduceSumRepeats(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<T>& work, const Mask& m, int32_t repeatTime,
                      int32_t srcRepStride) {
  work.ascData(call, "workLocal", 0);
  constexpr int64_t per_repeat = 256 / sizeof(T), per_block = 32 / sizeof(T);
  int64_t lanes = 0;  // masked elements per repeat: the calls below come repeat by repeat
  for (int64_t e = 0; e < per_repeat; ++e) lanes += m.on(uint64_t(e)) ? 1 : 0;
  const int64_t step = int64_t(srcRepStride) * per_block;
  // Grown as the (checked) repeats arrive, never sized from the unchecked repeatTime.
  std::vector<std::vector<CalcT<T>>> repeats;
  int64_t n = 0;
  forMaskedRepeats(call, src, m, repeatTime, srcRepStride, [&](int64_t i, T v) {
    const int64_t r = n++ / lanes;
    if (repeats.size() <= size_t(r))
      repeats.resize(size_t(r) + 1, std::vector<CalcT<T>>(per_repeat, CalcT<T>(0)));
    repeats[size_t(r)][size_t(i - r * step)] = CalcT<T>(v);
  });
  std::vector<CalcT<T>> sums;
  for (auto& v : repeats) sums.push_back(treeSum<T>(std::move(v)));
  dst.ascData(call, "dst", 1)[0] = T(treeOfRepeats<T>(std::move(sums)));
}

template <typename T, bool kMax>
void reduceExtremeMasked(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                         const LocalTensor<T>& work, const Mask& m, int32_t repeatTime,
                         int32_t srcRepStride, bool calIndex) {
  work.ascData(call, "workLocal", 0);
  using C = CalcT<T>;
  int64_t best = -1;
  C best_v = 0;
  T best_raw = T();
  forMaskedRepeats(call, src, m, repeatTime, srcRepStride, [&](int64_t i, T v) {
    if (best < 0 || (kMax ? C(v) > best_v : C(v) < best_v)) {
      best = i;
      best_v = C(v);
      best_raw = v;
    }
  });
  T* d = dst.ascData(call, "dst", calIndex ? 2 : 1);
  d[0] = best_raw;
  if (calIndex) storeIndexBits(&d[1], best);
}
}  // namespace detail_cpu

#define ASC_CPU_REDUCE_EXTREME_MASKED(Name, kMax)                                             \
  template <typename T>                                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, \
            const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride,         \
            bool calIndex = false) {                                                          \
    detail_cpu::reduceExtremeMasked<T, kMax>(#Name, dst, src, work,                           \
                                             detail_cpu::countMask<T>(#Name, uint64_t(mask)), \
                                             repeatTime, srcRepStride, calIndex);             \
  }                                                                                           \
  template <typename T>                                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, \
            const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride,      \
            bool calIndex = false) {                                                          \
    detail_cpu::reduceExtremeMasked<T, kMax>(#Name, dst, src, work,                           \
                                             detail_cpu::bitMask<T>(#Name, mask), repeatTime, \
                                             srcRepStride, calIndex);                         \
  }
/// The mask/repeat forms: over the masked elements of every repeat; dst[0] is the extreme (the
/// first on ties) and, with calIndex, dst[1] holds the bits of its index in src.
ASC_CPU_REDUCE_EXTREME_MASKED(ReduceMax, true)
ASC_CPU_REDUCE_EXTREME_MASKED(ReduceMin, false)
#undef ASC_CPU_REDUCE_EXTREME_MASKED

/// dst[0] = the sum of src[0..count), added as the vector unit adds (CANN's ReduceSum, "key
/// features"): each repeat of 256 bytes in a binary tree of adjacent pairs, rounded to T at every
/// add (a half sum saturates at +-65504); then the repeat sums one after another on Atlas A2/A3,
/// in a second tree on the other chips. workLocal is checked but not needed on the CPU.
template <typename T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const int32_t count) {
  detail_cpu::checkCount("ReduceSum", count);
  work.ascData("ReduceSum", "workLocal", 0);
  const T* s = src.ascData("ReduceSum", "src", count);
  T* d = dst.ascData("ReduceSum", "dst", 1);
  using C = detail_cpu::CalcT<T>;
  constexpr int32_t per_repeat = 256 / sizeof(T);
  std::vector<C> sums;
  for (int32_t at = 0; at < count; at += per_repeat) {
    std::vector<C> v(per_repeat, C(0));
    for (int32_t k = 0; k < per_repeat && at + k < count; ++k) v[k] = C(s[at + k]);
    sums.push_back(detail_cpu::treeSum<T>(std::move(v)));
  }
  C total = C(0);
  if (detail_cpu::sequentialRepeatSums()) {
    for (size_t i = 0; i < sums.size(); ++i)
      total = i == 0 ? sums[0] : detail_cpu::addInType<T>(total, sums[i]);
  } else {
    total = detail_cpu::treeOfRepeats<T>(std::move(sums));
  }
  d[0] = T(total);
}

/// The mask/repeat form of ReduceSum: dst[0] = the sum of the masked elements of every repeat,
/// each repeat in a tree and the repeat sums in a second tree (every chip), in T.
template <typename T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride) {
  detail_cpu::reduceSumRepeats("ReduceSum", dst, src, work,
                               detail_cpu::countMask<T>("ReduceSum", uint64_t(mask)), repeatTime,
                               srcRepStride);
}
template <typename T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride) {
  detail_cpu::reduceSumRepeats("ReduceSum", dst, src, work,
                               detail_cpu::bitMask<T>("ReduceSum", mask), repeatTime, srcRepStride);
}

}  // namespace AscendC
