// kernel_gather_sort.h: selecting and sorting on the vector unit, as the A2/A3 (Ascend910B) chips
// run them. GatherMask packs the elements a bit pattern keeps; Gather reads elements at byte
// offsets; Gatherb copies 32-byte blocks. The sort family works on 8-byte records (a float
// score and its uint32 index, or a half score, two bytes of padding and the index): Sort32 sorts
// runs of 32, MrgSort merges up to four sorted lists, Sort and Extract wrap them; every order is
// descending by score, ties keeping input order. Every operand's touched extent is checked
// against its tensor before anything is written.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "asc_cpu/kernel_vec_repeat.h"

namespace AscendC {

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

/// GatherMask's strides, in 32-byte blocks.
struct GatherMaskParams {
  GatherMaskParams() {}
  GatherMaskParams(uint8_t src0BlockStrideIn, uint16_t repeatTimesIn, uint16_t src0RepeatStrideIn,
                   uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn),
        repeatTimes(repeatTimesIn),
        src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  uint8_t src0BlockStride = 1;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = 8;
  uint8_t src1RepeatStride = 8;
};

namespace detail_cpu {

template <typename T>
void requireWidth(const char* call, std::initializer_list<size_t> sizes) {
  for (size_t s : sizes)
    if (sizeof(T) == s) return;
  asc::ascendc::detail::failf(call, "elements of ", sizeof(T), " bytes are not supported here");
}

// GatherMask: element e of repeat r is kept when `keep(r, e)`; kept elements are packed into dst.
template <typename T, typename Keep>
void gatherMask(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                bool reduce_mode, uint32_t mask, const GatherMaskParams& p, uint64_t& kept,
                Keep keep) {
  requireWidth<T>(call, {2, 4});
  constexpr uint64_t per_repeat = 256 / sizeof(T);
  // Normal mode walks whole 256-byte repeats; counter mode the first `mask` elements of each.
  const uint64_t per = reduce_mode ? mask : per_repeat;
  if (reduce_mode && (mask == 0 || mask > per_repeat * 255))
    asc::ascendc::detail::failf(call, "counter mode takes a mask of 1..", per_repeat * 255,
                                " elements, not ", mask);
  // Only the selected elements must lie in src0: the NPU reads whole repeats, but what it does
  // not select does not matter (a counter-mode mask may run past a short tensor).
  std::vector<uint64_t> picked;
  uint64_t src_extent = 0;
  for (uint64_t r = 0; r < p.repeatTimes; ++r)
    for (uint64_t e = 0; e < per; ++e)
      if (keep(r, e)) {
        picked.push_back(at<T>(r, e, p.src0BlockStride, p.src0RepeatStride));
        src_extent = std::max(src_extent, picked.back() + 1);
      }
  const T* s = src0.ascData(call, "src0", src_extent);
  std::vector<T> out;
  out.reserve(picked.size());
  for (uint64_t i : picked) out.push_back(s[i]);
  T* d = dst.ascData(call, "dst", out.size());
  if (!out.empty()) std::memmove(d, out.data(), out.size() * sizeof(T));
  kept = out.size();
}

}  // namespace detail_cpu

/// Packs into dst the elements of src0 whose bit in the pattern tensor is set (bit e of repeat
/// r: element e of that repeat, least significant bit first); rsvdCnt = how many were kept.
/// U is uint16_t for 2-byte T and uint32_t for 4-byte T. reduceMode true: `mask` elements per
/// repeat (counter mode); false: whole 256-byte repeats and `mask` is unused.
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt) {
  static_assert(sizeof(U) == sizeof(T) && (sizeof(T) == 2 || sizeof(T) == 4),
                "GatherMask: the pattern is uint16_t for 2-byte and uint32_t for 4-byte elements");
  const GatherMaskParams& p = gatherMaskParams;
  constexpr uint64_t per_repeat = 256 / sizeof(T);
  const uint64_t per = reduceMode ? mask : per_repeat;
  const uint64_t words_per_repeat = (per + 8 * sizeof(U) - 1) / (8 * sizeof(U));
  // The pattern's repeats are src1RepeatStride blocks apart (0: the same pattern every repeat).
  const uint64_t stride = uint64_t(p.src1RepeatStride) * (32 / sizeof(U));
  const uint64_t extent =
      p.repeatTimes ? (p.repeatTimes - 1) * stride + std::max<uint64_t>(words_per_repeat, 1) : 0;
  const U* pat = src1Pattern.ascData("GatherMask", "src1Pattern", extent);
  detail_cpu::gatherMask("GatherMask", dst, src0, reduceMode, mask, p, rsvdCnt,
                         [&](uint64_t r, uint64_t e) {
                           const U w = pat[r * stride + e / (8 * sizeof(U))];
                           return (w >> (e % (8 * sizeof(U)))) & 1u;
                         });
}

/// The fixed patterns: 1 even elements, 2 odd ones, 3..6 element 4k, 4k+1, 4k+2, 4k+3, 7 all.
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                const bool reduceMode, const uint32_t mask,
                const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt) {
  if (src1Pattern < 1 || src1Pattern > 7)
    asc::ascendc::detail::failf("GatherMask", "fixed pattern ", int(src1Pattern),
                                " is not one of 1..7");
  detail_cpu::gatherMask("GatherMask", dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt,
                         [src1Pattern](uint64_t, uint64_t e) {
                           switch (src1Pattern) {
                             case 1:
                               return e % 2 == 0;
                             case 2:
                               return e % 2 == 1;
                             case 7:
                               return true;
                             default:
                               return e % 4 == uint64_t(src1Pattern - 3);
                           }
                         });
}

/// dst[i] = the element of src at byte offset srcBaseOffset + srcOffset[i], for the first
/// `count` elements (offsets multiples of sizeof(T)).
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset,
            const uint32_t count) {
  detail_cpu::requireWidth<T>("Gather", {2, 4});
  const uint32_t* off = srcOffset.ascData("Gather", "srcOffset", count);
  T* d = dst.ascData("Gather", "dst", count);
  const uint64_t n = src.GetSize();
  const T* s = src.ascData("Gather", "src", n);
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t byte = uint64_t(srcBaseOffset) + off[i];
    if (byte % sizeof(T) != 0 || byte / sizeof(T) >= n)
      asc::ascendc::detail::failf("Gather", "offset ", byte, " bytes (element ", i,
                                  ") is not an element of src (", n, " elements of ", sizeof(T),
                                  " bytes)");
    d[i] = s[byte / sizeof(T)];
  }
}

namespace detail_cpu {
template <typename T>
void gatherRepeat(const char* call, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                  const LocalTensor<uint32_t>& srcOffset, uint32_t base, const Mask& m,
                  uint8_t repeat, uint16_t dst_rep) {
  requireWidth<T>(call, {2, 4});
  constexpr uint64_t per_repeat = 256 / sizeof(T);
  T* d = dst.ascData(call, "dst", extent<T>(m, repeat, 1, dst_rep));
  // Offsets are read for the masked lanes only: the last repeat's end is its last lane on.
  uint64_t lanes = per_repeat;
  while (lanes > 0 && !m.on(lanes - 1)) --lanes;
  const uint32_t* off =
      srcOffset.ascData(call, "srcOffset", repeat && lanes ? (repeat - 1) * per_repeat + lanes : 0);
  const uint64_t n = src.GetSize();
  const T* s = src.ascData(call, "src", n);
  for (uint64_t r = 0; r < repeat; ++r)
    for (uint64_t e = 0; e < per_repeat; ++e) {
      if (!m.on(e)) continue;
      const uint64_t byte = uint64_t(base) + off[r * per_repeat + e];
      if (byte % sizeof(T) != 0 || byte / sizeof(T) >= n)
        asc::ascendc::detail::failf(call, "offset ", byte, " bytes is not an element of src (", n,
                                    " elements)");
      d[at<T>(r, e, 1, dst_rep)] = s[byte / sizeof(T)];
    }
}
}  // namespace detail_cpu

/// The repeat forms: each repeat fills the masked lanes of 256 bytes of dst (repeats dstRepStride
/// blocks apart) from the next 256 / sizeof(T) offsets.
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset,
            const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride) {
  detail_cpu::gatherRepeat("Gather", dst, src, srcOffset, srcBaseOffset,
                           detail_cpu::countMask<T>("Gather", mask), repeatTime, dstRepStride);
}
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset,
            const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride) {
  detail_cpu::gatherRepeat("Gather", dst, src, srcOffset, srcBaseOffset,
                           detail_cpu::bitMask<T>("Gather", mask), repeatTime, dstRepStride);
}

/// Gatherb's strides (dst's, in 32-byte blocks).
struct GatherRepeatParams {
  GatherRepeatParams() {}
  GatherRepeatParams(uint8_t dstBlkStrideIn, uint8_t dstRepStrideIn)
      : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
  uint32_t blockNumber = 8;
  uint16_t dstRepStride = 8;
  uint8_t dstBlkStride = 1;
  uint8_t src0BlkStride = 1;
  uint8_t src1BlkStride = 1;
  uint8_t src0RepStride = 8;
  uint8_t src1RepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

/// Copies 32-byte blocks: block j of repeat i comes from byte offset offset[i * 8 + j] of src.
template <typename T>
void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src,
             const LocalTensor<uint32_t>& offset, const uint8_t repeatTime,
             const GatherRepeatParams& repeatParams) {
  const uint64_t blk = repeatParams.dstBlkStride ? repeatParams.dstBlkStride : 1;
  const uint64_t rep = repeatParams.dstRepStride;
  const uint32_t* off = offset.ascData("Gatherb", "offset", uint64_t(repeatTime) * 8);
  const uint64_t dst_blocks = repeatTime ? (repeatTime - 1) * rep + 7 * blk + 1 : 0;
  uint8_t* d =
      reinterpret_cast<uint8_t*>(dst.ascData("Gatherb", "dst", dst_blocks * 32 / sizeof(T)));
  const uint64_t src_bytes = uint64_t(src.GetSize()) * sizeof(T);
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ascData("Gatherb", "src", src.GetSize()));
  for (uint64_t i = 0; i < repeatTime; ++i)
    for (uint64_t j = 0; j < 8; ++j) {
      const uint64_t from = off[i * 8 + j];
      if (from % 32 != 0 || from + 32 > src_bytes)
        asc::ascendc::detail::failf("Gatherb", "offset ", from,
                                    " is not a 32-byte block inside src (", src_bytes, " bytes)");
      std::memcpy(d + 32 * (i * rep + j * blk), s + from, 32);
    }
}

// --- Sorting: 8-byte records (score, index), descending ---------------------------------------

/// Elements of T that `elemCount` records take (2 floats or 4 halves each).
template <typename T>
uint32_t GetSortLen(const uint32_t elemCount) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GetSortLen: T is half or float");
  return elemCount * (8 / sizeof(T));
}
/// Elements of T before record `elemOffset`.
template <typename T>
uint32_t GetSortOffset(const uint32_t elemOffset) {
  return GetSortLen<T>(elemOffset);
}

namespace detail_cpu {

struct SortRecord {
  float score;
  uint32_t index;
};

template <typename T>
SortRecord readRecord(const T* p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "sort records hold half or float scores");
  SortRecord r;
  r.score = float(CalcT<T>(p[0]));
  std::memcpy(&r.index, reinterpret_cast<const uint8_t*>(p) + 4, 4);
  return r;
}

template <typename T>
void writeRecord(T* p, T score, uint32_t index) {
  uint8_t* b = reinterpret_cast<uint8_t*>(p);
  std::memset(b, 0, 8);
  std::memcpy(b, &score, sizeof(T));
  std::memcpy(b + 4, &index, 4);
}

// Merges the lists (each descending) into dst, stable: on equal scores the earlier list first.
// Stops when `stop_on_exhausted` and a list runs out; consumed[i] = records taken from list i.
template <typename T>
uint64_t mergeRecords(T* dst, const std::vector<const T*>& lists, const std::vector<uint64_t>& lens,
                      bool stop_on_exhausted, uint64_t consumed[4]) {
  constexpr uint64_t kSlots = 8 / sizeof(T);
  std::vector<uint64_t> pos(lists.size(), 0);
  uint64_t out = 0;
  for (;;) {
    int best = -1;
    float best_score = 0;
    bool exhausted = false;  // some list is used up
    for (size_t i = 0; i < lists.size(); ++i) {
      if (pos[i] >= lens[i]) {
        exhausted = true;
        continue;
      }
      const float s = readRecord(lists[i] + pos[i] * kSlots).score;
      if (best < 0 || s > best_score) {
        best = int(i);
        best_score = s;
      }
    }
    if (best < 0 || (stop_on_exhausted && exhausted)) break;
    std::memmove(dst + out * kSlots, lists[best] + pos[best] * kSlots, 8);
    ++pos[best];
    ++out;
  }
  for (size_t i = 0; i < 4; ++i) consumed[i] = i < pos.size() ? pos[i] : 0;
  return out;
}

inline uint16_t (&mrgSortResult())[4] {
  static thread_local uint16_t consumed[4] = {0, 0, 0, 0};
  return consumed;
}

}  // namespace detail_cpu

/// Sorts each run of 32 scores (src0) with their indices (src1) into 32 records, descending;
/// runs are `repeatTime` apart by 32 elements, their records 256 bytes apart in dst.
template <typename T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
            const LocalTensor<uint32_t>& src1, const int32_t repeatTime) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Sort32: T is half or float");
  if (repeatTime < 0 || repeatTime > 255)
    asc::ascendc::detail::failf("Sort32", "repeatTime ", repeatTime, " is outside 0..255");
  const uint64_t n = uint64_t(repeatTime) * 32;
  const T* s = src0.ascData("Sort32", "src0", n);
  const uint32_t* idx = src1.ascData("Sort32", "src1", n);
  T* d = dst.ascData("Sort32", "dst", GetSortLen<T>(uint32_t(n)));
  std::vector<uint32_t> order(32);
  std::vector<uint8_t> out(32 * 8);
  for (int32_t r = 0; r < repeatTime; ++r) {
    const T* rs = s + r * 32;
    for (uint32_t i = 0; i < 32; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return float(detail_cpu::CalcT<T>(rs[a])) > float(detail_cpu::CalcT<T>(rs[b]));
    });
    for (uint32_t i = 0; i < 32; ++i)
      detail_cpu::writeRecord(reinterpret_cast<T*>(out.data() + 8 * i), rs[order[i]],
                              idx[r * 32 + order[i]]);
    std::memcpy(d + r * GetSortLen<T>(32), out.data(), out.size());
  }
}

constexpr uint8_t MRG_SORT_ELEMENT_LEN = 4;

/// MrgSort's lists: their lengths in records, whether to stop when one runs out, which of the
/// four take part (bit i: list i + 1), and the repeats.
struct MrgSort4Info {
  MrgSort4Info() {}
  MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN],
               const bool ifExhaustedSuspensionIn, const uint16_t validBitIn,
               const uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn),
        validBit(validBitIn),
        repeatTimes(uint8_t(repeatTimesIn)) {
    for (int i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint8_t repeatTimes = 1;
};

template <typename T>
struct MrgSortSrcList {
  MrgSortSrcList() {}
  MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In,
                 const LocalTensor<T>& src3In, const LocalTensor<T>& src4In)
      : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
  LocalTensor<T> src1, src2, src3, src4;
};

/// Merges the valid lists (validBit 0b11, 0b111 or 0b1111; each sorted descending) into dst,
/// descending. With repeatTimes > 1 (four lists of one length, contiguous, validBit 15, no
/// suspension) each repeat merges the next four lists.
template <typename T>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "MrgSort: T is half or float");
  const char* call = "MrgSort";
  const uint16_t vb = params.validBit;
  if (vb != 0b11 && vb != 0b111 && vb != 0b1111)
    asc::ascendc::detail::failf(call, "validBit ", vb, " is not 3, 7 or 15 (2, 3 or 4 lists)");
  const int lists = vb == 0b11 ? 2 : vb == 0b111 ? 3 : 4;
  const LocalTensor<T>* srcs[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
  const int repeats = params.repeatTimes ? params.repeatTimes : 1;
  if (repeats > 1) {
    const uint16_t len = params.elementLengths[0];
    for (int i = 1; i < 4; ++i)
      if (params.elementLengths[i] != len)
        asc::ascendc::detail::failf(call, "repeatTimes ", repeats,
                                    " needs four lists of one length");
    if (lists != 4 || params.ifExhaustedSuspension)
      asc::ascendc::detail::failf(call, "repeatTimes ", repeats,
                                  " needs validBit 15 and no exhausted suspension");
  }
  constexpr uint64_t kSlots = 8 / sizeof(T);
  uint64_t total = 0;
  for (int i = 0; i < lists; ++i) total += params.elementLengths[i];
  T* d = dst.ascData(call, "dst", uint64_t(repeats) * total * kSlots);
  std::vector<uint8_t> merged(total * 8);
  uint64_t consumed[4] = {0, 0, 0, 0};
  for (int r = 0; r < repeats; ++r) {
    std::vector<std::vector<uint8_t>> copies(lists);
    std::vector<const T*> ptrs;
    std::vector<uint64_t> lens;
    for (int i = 0; i < lists; ++i) {
      const uint64_t len = params.elementLengths[i];
      // Repeat r reads the four lists that follow the previous repeat's, contiguously.
      const uint64_t skip = uint64_t(r) * total * kSlots;
      const T* p = (*srcs[i]).ascData(call, "src", skip + len * kSlots) + skip;
      copies[i].assign(reinterpret_cast<const uint8_t*>(p),
                       reinterpret_cast<const uint8_t*>(p) + len * 8);  // dst may follow a list
      ptrs.push_back(reinterpret_cast<const T*>(copies[i].data()));
      lens.push_back(len);
    }
    const uint64_t n = detail_cpu::mergeRecords<T>(reinterpret_cast<T*>(merged.data()), ptrs, lens,
                                                   params.ifExhaustedSuspension, consumed);
    std::memcpy(d + uint64_t(r) * total * kSlots, merged.data(), n * 8);
  }
  for (int i = 0; i < 4; ++i) detail_cpu::mrgSortResult()[i] = uint16_t(consumed[i]);
}

/// The records MrgSort took from each list (with ifExhaustedSuspension).
inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                             uint16_t& mrgSortList4) {
  const uint16_t(&c)[4] = detail_cpu::mrgSortResult();
  mrgSortList1 = c[0];
  mrgSortList2 = c[1];
  mrgSortList3 = c[2];
  mrgSortList4 = c[3];
}

/// The high-level form: the lengths as a list, and with isExhaustedSuspension the records taken
/// from each list in sortedNum.
template <typename T, bool isExhaustedSuspension = false>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList,
             const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
             const int32_t repeatTime) {
  MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit, uint16_t(repeatTime));
  MrgSort(dst, sortList, info);
  if (isExhaustedSuspension && sortedNum)
    for (int i = 0; i < 4; ++i) sortedNum[i] = detail_cpu::mrgSortResult()[i];
}

/// Prepares scores for Sort: on these chips the scores are used as they are.
template <typename T>
void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
            const int32_t repeatTime) {
  (void)tmp;
  (void)repeatTime;
  concat = src;
}

/// Sort32 on `repeatTime` runs of 32; with isFullSort the runs are then merged, so all
/// 32 * repeatTime records are descending in dst. `tmp` holds as many records as dst.
template <typename T, bool isFullSort>
void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat,
          const LocalTensor<uint32_t>& index, LocalTensor<T>& tmp, const int32_t repeatTime) {
  Sort32(dst, concat, index, repeatTime);
  if (!isFullSort || repeatTime <= 1) return;
  constexpr uint64_t kSlots = 8 / sizeof(T);
  const uint64_t n = uint64_t(repeatTime) * 32;
  T* d = dst.ascData("Sort", "dst", n * kSlots);
  (void)tmp.ascData("Sort", "tmp", n * kSlots);  // the NPU merges through it: it must be there
  std::vector<uint8_t> merged(n * 8);
  // Merge runs of 32 pairwise until one run remains (stable: earlier runs first on ties).
  for (uint64_t run = 32; run < n; run *= 2) {
    for (uint64_t start = 0; start < n; start += 2 * run) {
      const uint64_t mid = std::min(start + run, n), end = std::min(start + 2 * run, n);
      uint64_t consumed[4];
      detail_cpu::mergeRecords<T>(reinterpret_cast<T*>(merged.data() + start * 8),
                                  {d + start * kSlots, d + mid * kSlots}, {mid - start, end - mid},
                                  false, consumed);
    }
    std::memcpy(d, merged.data(), n * 8);
  }
}

/// Splits `repeatTime` * 32 records into their scores and their indices.
template <typename T>
void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
             const LocalTensor<T>& sorted, const int32_t repeatTime) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Extract: T is half or float");
  const uint64_t n = uint64_t(repeatTime) * 32;
  const T* s = sorted.ascData("Extract", "sorted", n * (8 / sizeof(T)));
  T* v = dstValue.ascData("Extract", "dstValue", n);
  uint32_t* ix = dstIndex.ascData("Extract", "dstIndex", n);
  for (uint64_t i = 0; i < n; ++i) {
    const T* rec = s + i * (8 / sizeof(T));
    std::memcpy(&v[i], rec, sizeof(T));
    std::memcpy(&ix[i], reinterpret_cast<const uint8_t*>(rec) + 4, 4);
  }
}

}  // namespace AscendC
