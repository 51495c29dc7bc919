// kernel_data_copy.h: DataCopy and DataCopyPad between global memory (GM) and the unified buffer
// (UB), and within the UB. The NPU's DMA moves GM<->UB data in 32-byte blocks, so DataCopy of a
// length that is not a multiple of 32 bytes is an error here (DataCopyPad copies any byte length
// and pads the UB side to 32 bytes).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "asc/ascendc/kernel_context.h"
#include "asc_cpu/kernel_tensor.h"
#include "asc_cpu/kernel_vec.h"

namespace AscendC {
namespace detail_cpu {

/// Stores `n` elements into global memory as the block's atomic mode says: a plain copy, or a
/// read-modify-write (add, max, min) that blocks on other threads cannot interleave.
template <typename T>
void storeGm(T* gm, const T* src, uint64_t n) {
  const int mode = asc::ascendc::detail::atomicMode();
  if (mode == 0) {
    asc::ascendc::detail::copyBytes(gm, src, n * sizeof(T));
    return;
  }
  using C = CalcT<T>;
  asc::ascendc::detail::gmAtomicLock();
  for (uint64_t i = 0; i < n; ++i) {
    const C a = C(gm[i]), b = C(src[i]);
    gm[i] = T(mode == 1 ? a + b : mode == 2 ? maxOf<T>(a, b) : minOf<T>(a, b));
  }
  asc::ascendc::detail::gmAtomicUnlock();
}

}  // namespace detail_cpu

/// DataCopy's strided form: blockCount blocks of blockLen 32-byte units, with srcStride and
/// dstStride 32-byte units skipped between blocks.
struct DataCopyParams {
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t src_stride, uint16_t dst_stride)
      : blockCount(count), blockLen(len), srcStride(src_stride), dstStride(dst_stride) {}
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
};

/// DataCopyPad's form: blockCount blocks of blockLen BYTES. Strides between blocks are in bytes on
/// the GM side and in 32-byte units on the UB side; each UB block starts on a 32-byte boundary.
struct DataCopyExtParams {
  DataCopyExtParams() = default;
  DataCopyExtParams(uint16_t count, uint32_t len, uint32_t src_stride, uint32_t dst_stride,
                    uint32_t reserved)
      : blockCount(count),
        blockLen(len),
        srcStride(src_stride),
        dstStride(dst_stride),
        rsv(reserved) {}
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};

/// What DataCopyPad writes around each block copied into the UB: leftPadding and rightPadding
/// elements of paddingValue when isPad is set.
template <typename T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool is_pad, uint8_t left, uint8_t right, T value)
      : isPad(is_pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = T();
};

/// The older form of DataCopyPad's padding parameters.
struct DataCopyPadParams {
  DataCopyPadParams() = default;
  DataCopyPadParams(bool is_pad, uint8_t left, uint8_t right, uint64_t value)
      : isPad(is_pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};

namespace detail_cpu {
template <typename T>
void checkBlocks32(const char* call, uint64_t count) {
  uint64_t bytes = count * sizeof(T);
  if (bytes % 32 != 0)
    asc::ascendc::detail::failf(call, "length ", bytes, " bytes is not a multiple of 32 bytes (",
                                count, " elements of ", sizeof(T),
                                " bytes); the NPU moves global memory in 32-byte blocks (use "
                                "DataCopyPad for other lengths)");
}
}  // namespace detail_cpu

/// GM -> UB, `count` elements.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
  detail_cpu::checkBlocks32<T>("DataCopy", count);
  T* d = dst.ascData("DataCopy", "dst", count);
  asc::ascendc::detail::copyBytes(d, src.ascData("DataCopy", 0, count), size_t(count) * sizeof(T));
}

/// UB -> GM, `count` elements.
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail_cpu::checkBlocks32<T>("DataCopy", count);
  const T* s = src.ascReadData("DataCopy", "src", count);
  detail_cpu::storeGm(dst.ascData("DataCopy", 0, count), s, count);
}

/// UB -> UB, `count` elements.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  T* d = dst.ascData("DataCopy", "dst", count);
  asc::ascendc::detail::copyBytes(d, src.ascData("DataCopy", "src", count),
                                  size_t(count) * sizeof(T));
}

namespace detail_cpu {
// The strided form, for all three directions: element offsets of block i on each side.
template <typename D, typename S, typename Dst, typename Src>
void copyBlocks(const Dst& dst, const Src& src, const DataCopyParams& p) {
  const uint64_t unit = 32 / sizeof(D), len = uint64_t(p.blockLen) * unit;
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    uint64_t so = i * (len + uint64_t(p.srcStride) * unit);
    uint64_t dof = i * (len + uint64_t(p.dstStride) * unit);
    if constexpr (std::is_same_v<Dst, GlobalTensor<D>>) {
      const D* s = src[uint32_t(so)].ascData("DataCopy", "src", len);
      storeGm(dst.ascData("DataCopy", dof, len), s, len);
    } else if constexpr (std::is_same_v<Src, GlobalTensor<S>>) {
      D* d = dst[uint32_t(dof)].ascData("DataCopy", "dst", len);
      asc::ascendc::detail::copyBytes(d, src.ascData("DataCopy", so, len), len * sizeof(D));
    } else {
      D* d = dst[uint32_t(dof)].ascData("DataCopy", "dst", len);
      asc::ascendc::detail::copyBytes(d, src[uint32_t(so)].ascData("DataCopy", "src", len),
                                      len * sizeof(D));
    }
  }
}
}  // namespace detail_cpu

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
  detail_cpu::copyBlocks<T, T>(dst, src, p);
}
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  detail_cpu::copyBlocks<T, T>(dst, src, p);
}
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  detail_cpu::copyBlocks<T, T>(dst, src, p);
}

/// GM -> UB of any byte length: block i's blockLen bytes land at a 32-byte boundary of the UB,
/// after leftPadding elements; with isPad, the padding elements hold paddingValue.
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad) {
  const char* call = "DataCopyPad";
  if (p.blockLen % sizeof(T) != 0)
    asc::ascendc::detail::failf(call, "blockLen ", p.blockLen, " bytes is not a whole number of ",
                                sizeof(T), "-byte elements");
  const uint64_t elems = p.blockLen / sizeof(T);
  const uint64_t row = uint64_t(pad.leftPadding) + elems + pad.rightPadding;
  const uint64_t row_bytes = (row * sizeof(T) + 31) / 32 * 32;
  const uint64_t dst_step = row_bytes + uint64_t(p.dstStride) * 32;
  const uint64_t src_step = p.blockLen + uint64_t(p.srcStride);
  if (src_step % sizeof(T) != 0)
    asc::ascendc::detail::failf(call, "srcStride ", p.srcStride,
                                " bytes is not a whole number of elements");
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    // Block 0 straight from dst (no view to make: the common single-block copy).
    T* out = i == 0 ? dst.ascData(call, "dst", row)
                    : dst[uint32_t(i * dst_step / sizeof(T))].ascData(call, "dst", row);
    const T* in = src.ascData(call, i * src_step / sizeof(T), elems);
    if (pad.isPad) {
      for (uint64_t k = 0; k < pad.leftPadding; ++k) out[k] = pad.paddingValue;
      for (uint64_t k = 0; k < pad.rightPadding; ++k)
        out[pad.leftPadding + elems + k] = pad.paddingValue;
    }
    asc::ascendc::detail::copyBytes(out + pad.leftPadding, in, p.blockLen);
  }
}

template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                 const DataCopyPadParams& pad) {
  DataCopyExtParams e{p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0};
  T value;
  std::memcpy(&value, &pad.paddingValue, sizeof(T) <= 8 ? sizeof(T) : 8);
  DataCopyPad(dst, src, e,
              DataCopyPadExtParams<T>{pad.isPad, pad.leftPadding, pad.rightPadding, value});
}

/// UB -> GM of any byte length: block i's blockLen bytes from a 32-byte boundary of the UB.
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                 const DataCopyExtParams& p) {
  const char* call = "DataCopyPad";
  if (p.blockLen % sizeof(T) != 0)
    asc::ascendc::detail::failf(call, "blockLen ", p.blockLen, " bytes is not a whole number of ",
                                sizeof(T), "-byte elements");
  const uint64_t elems = p.blockLen / sizeof(T);
  const uint64_t row_bytes = (uint64_t(p.blockLen) + 31) / 32 * 32;
  const uint64_t src_step = row_bytes + uint64_t(p.srcStride) * 32;
  const uint64_t dst_step = p.blockLen + uint64_t(p.dstStride);
  if (dst_step % sizeof(T) != 0)
    asc::ascendc::detail::failf(call, "dstStride ", p.dstStride,
                                " bytes is not a whole number of elements");
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    const T* in = i == 0 ? src.ascData(call, "src", elems)
                         : src[uint32_t(i * src_step / sizeof(T))].ascData(call, "src", elems);
    detail_cpu::storeGm(dst.ascData(call, i * dst_step / sizeof(T), elems), in, elems);
  }
}

template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  DataCopyPad(dst, src, DataCopyExtParams{p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0});
}

// --- the slice form: a sub-block of a multi-dimensional tensor ---------------------------------

/// The most dimensions DataCopy's slice form takes.
constexpr uint32_t K_MAX_DIM = 8;

/// One dimension of DataCopy's slice form; dimension 0 is the innermost (contiguous) one. The
/// slice takes elements startIndex..endIndex of a dimension of shapeValue elements: on dimension
/// 0 in pieces of burstLen 32-byte units with `stride` elements skipped between pieces; on the
/// others every (stride + 1)-th index (burstLen must be 1 there).
struct SliceInfo {
  SliceInfo() = default;
  SliceInfo(uint32_t start, uint32_t end, uint32_t stride_elems, uint32_t burst, uint32_t shape)
      : startIndex(start),
        endIndex(end),
        stride(stride_elems),
        burstLen(burst),
        shapeValue(shape) {}
  uint32_t startIndex = 0;
  uint32_t endIndex = 0;
  uint32_t stride = 0;
  uint32_t burstLen = 1;
  uint32_t shapeValue = 0;
};

namespace detail_cpu {
/// The element offset of each piece a slice takes (dimension 0 varying fastest) and the pieces'
/// length in elements; an index past an outer dimension stops the kernel, naming the side.
template <typename T>
std::vector<uint64_t> slicePieces(const char* side, const SliceInfo* info, uint32_t dims,
                                  uint64_t* piece_len) {
  const char* call = "DataCopy (SliceInfo)";
  if (info == nullptr || dims == 0 || dims > K_MAX_DIM)
    asc::ascendc::detail::failf(call, "dimValue ", dims, " is outside 1..", K_MAX_DIM, " (or the ",
                                side, " SliceInfo array is null)");
  const uint64_t len = uint64_t(info[0].burstLen) * (32 / sizeof(T));
  if (len == 0) asc::ascendc::detail::failf(call, side, "SliceInfo[0].burstLen is 0");
  *piece_len = len;
  std::vector<uint64_t> offsets;
  // A piece is whole 32-byte blocks, so the last one of a row may run past the row's
  // shapeValue elements into what follows it in memory, as the NPU's DMA reads it; only the
  // tensors' own bounds are checked (when the pieces are copied).
  for (uint64_t p = info[0].startIndex; p <= info[0].endIndex; p += len + info[0].stride)
    offsets.push_back(p);
  uint64_t scale = info[0].shapeValue;
  for (uint32_t d = 1; d < dims; ++d) {
    const SliceInfo& s = info[d];
    if (s.burstLen != 1)
      asc::ascendc::detail::failf(call, side, "SliceInfo[", d, "].burstLen is ", s.burstLen,
                                  "; beyond dimension 0 it must be 1");
    std::vector<uint64_t> next;
    for (uint64_t i = s.startIndex; i <= s.endIndex; i += uint64_t(s.stride) + 1) {
      if (i >= s.shapeValue)
        asc::ascendc::detail::failf(call, side, "SliceInfo[", d, "]: index ", i,
                                    " is outside the dimension's ", s.shapeValue,
                                    " elements (shapeValue)");
      for (uint64_t o : offsets) next.push_back(i * scale + o);
    }
    offsets.swap(next);
    scale *= s.shapeValue;
  }
  return offsets;
}

template <typename T, typename Dst, typename Src>
void copySlices(const Dst& dst, const Src& src, const SliceInfo dstInfo[],
                const SliceInfo srcInfo[], uint32_t dims) {
  const char* call = "DataCopy (SliceInfo)";
  uint64_t dlen = 0, slen = 0;
  const std::vector<uint64_t> d = slicePieces<T>("destination ", dstInfo, dims, &dlen);
  const std::vector<uint64_t> s = slicePieces<T>("source ", srcInfo, dims, &slen);
  if (d.size() * dlen != s.size() * slen)
    asc::ascendc::detail::failf(call, "the source slice holds ", s.size() * slen,
                                " elements and the destination slice ", d.size() * dlen,
                                "; they must hold the same number");
  // Element k of the source's pieces (in order) goes to element k of the destination's.
  std::vector<T> flat(s.size() * slen);
  for (size_t i = 0; i < s.size(); ++i) {
    const T* p;
    if constexpr (std::is_same_v<Src, GlobalTensor<T>>)
      p = src.ascData(call, s[i], slen);
    else
      p = src[uint32_t(s[i])].ascData(call, "src", slen);
    std::memcpy(flat.data() + i * slen, p, slen * sizeof(T));
  }
  for (size_t i = 0; i < d.size(); ++i) {
    const T* from = flat.data() + i * dlen;
    if constexpr (std::is_same_v<Dst, GlobalTensor<T>>)
      storeGm(dst.ascData(call, d[i], dlen), from, dlen);
    else
      std::memcpy(dst[uint32_t(d[i])].ascData(call, "dst", dlen), from, dlen * sizeof(T));
  }
}
}  // namespace detail_cpu

/// GM -> UB: the source slice's elements, in order, into the destination slice's.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
  detail_cpu::copySlices<T>(dst, src, dstSliceInfo, srcSliceInfo, dimValue);
}
/// UB -> GM, likewise.
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
  detail_cpu::copySlices<T>(dst, src, dstSliceInfo, srcSliceInfo, dimValue);
}

}  // namespace AscendC
