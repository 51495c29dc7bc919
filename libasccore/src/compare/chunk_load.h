// chunk_load.h: reading the compared tensors (private to compare; metrics.cpp): chunks of any
// element type converted to double, integers and bool read exactly (128-bit) for the exact
// pass, and the file pages of data no thread reads again released.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

#include "asc/compare/metrics.h"
#include "asc/support/fp16.h"
#include "cpu/convert.h"

namespace asc::compare::detail {

constexpr size_t kChunk = 8192;  // elements a thread converts and reduces at a time

// ---- chunk loading -------------------------------------------------------------------------

template <typename T>
T loadElem(const uint8_t* p, bool swap) {
  T v;
  if (!swap) {
    std::memcpy(&v, p, sizeof(T));
  } else {
    uint8_t b[sizeof(T)];
    for (size_t i = 0; i < sizeof(T); ++i) b[i] = p[sizeof(T) - 1 - i];
    std::memcpy(&v, b, sizeof(T));
  }
  return v;
}

template <typename T, typename Out>
void convertTo(const uint8_t* src, size_t n, bool swap, Out* out) {
  if (!swap) {
    T tmp[kChunk];  // copy first: the source may be unaligned (dump files, .npy bodies)
    std::memcpy(tmp, src, n * sizeof(T));
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<Out>(tmp[i]);
  } else {
    for (size_t i = 0; i < n; ++i)
      out[i] = static_cast<Out>(loadElem<T>(src + i * sizeof(T), true));
  }
}

// Converts n integer or bool elements of dtype `t` to Out (double, or an exact __int128);
// false for any other dtype.
template <typename Out>
bool convertIntegers(ir::DType t, const uint8_t* src, size_t n, bool swap, Out* out) {
  using ir::DType;
  switch (t) {
    case DType::I8:
    case DType::I4:  // one element per byte
      return convertTo<int8_t>(src, n, false, out), true;
    case DType::U8:
    case DType::U4:
      return convertTo<uint8_t>(src, n, false, out), true;
    case DType::I16:
      return convertTo<int16_t>(src, n, swap, out), true;
    case DType::U16:
      return convertTo<uint16_t>(src, n, swap, out), true;
    case DType::I32:
      return convertTo<int32_t>(src, n, swap, out), true;
    case DType::U32:
      return convertTo<uint32_t>(src, n, swap, out), true;
    case DType::I64:
      return convertTo<int64_t>(src, n, swap, out), true;
    case DType::U64:
      return convertTo<uint64_t>(src, n, swap, out), true;
    case DType::Bool:
      for (size_t i = 0; i < n; ++i) out[i] = src[i] != 0 ? Out(1) : Out(0);
      return true;
    default:
      return false;
  }
}

// Converts elements [begin, begin + n) of `v` (n <= kChunk) to double.
inline void loadChunk(const TensorView& v, uint64_t begin, size_t n, double* out) {
  const size_t es = ir::dtypeSize(v.dtype);
  const uint8_t* src = v.data + begin * es;
  const bool swap = v.big_endian && es > 1;
  if (convertIntegers(v.dtype, src, n, swap, out)) return;
  using ir::DType;
  switch (v.dtype) {
    case DType::F32:
      return convertTo<float>(src, n, swap, out);
    case DType::F64:
      return convertTo<double>(src, n, swap, out);
    case DType::F16:
    case DType::BF16: {
      uint16_t h[kChunk];
      float f[kChunk];
      for (size_t i = 0; i < n; ++i) h[i] = loadElem<uint16_t>(src + 2 * i, swap);
      if (v.dtype == DType::F16)
        cpu::halfToFloat(h, f, n);
      else
        cpu::bf16ToFloat(h, f, n);
      for (size_t i = 0; i < n; ++i) out[i] = f[i];
      return;
    }
    case DType::F8E4M3FN:
    case DType::F8E4M3FNUZ:
    case DType::F8E5M2:
    case DType::F8E5M2FNUZ:
      for (size_t i = 0; i < n; ++i) out[i] = float8ToFloat(src[i], ir::float8Kind(v.dtype));
      return;
    default:
      assert(false && "dtype checked by compareTensors");
      return;
  }
}

// ---- exact integers --------------------------------------------------------------------------
// Integers and bool are compared in integer arithmetic: a double holds only 53 bits, so int64
// 2^60 and 2^60 + 1 would convert to the same value and compare equal.

inline bool isExact(ir::DType t) {
  return t != ir::DType::Undefined && !ir::isFloat(t) && !ir::isFloat8(t);
}

using Wide = __int128;

// Elements [begin, begin + n) of an integer or bool `v` (n <= kChunk), exactly.
inline void loadWideChunk(const TensorView& v, uint64_t begin, size_t n, Wide* out) {
  const size_t es = ir::dtypeSize(v.dtype);
  const bool ok = convertIntegers(v.dtype, v.data + begin * es, n, v.big_endian && es > 1, out);
  assert(ok && "isExact checked by the caller");
  (void)ok;
}

struct ExactSums {
  unsigned __int128 max_abs = 0, sum_abs = 0;
  long double sum_sq = 0, sum_rel = 0, max_rel = 0;
  uint64_t viol = 0;
  int64_t first_viol = -1;
  unsigned __int128 max_viol = 0;
};

// One pass over both tensors in integer arithmetic (|x - y| of two 64-bit values fits 65 bits).
inline ExactSums exactPass(const TensorView& my, const TensorView& golden, const Tolerance& tol) {
  ExactSums e;
  std::vector<Wide> x(kChunk), y(kChunk);
  for (uint64_t b = 0; b < my.count; b += kChunk) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, my.count - b));
    loadWideChunk(my, b, n, x.data());
    loadWideChunk(golden, b, n, y.data());
    for (size_t i = 0; i < n; ++i) {
      const Wide dw = x[i] - y[i];
      const unsigned __int128 d = static_cast<unsigned __int128>(dw < 0 ? -dw : dw);
      const unsigned __int128 ay = static_cast<unsigned __int128>(y[i] < 0 ? -y[i] : y[i]);
      e.max_abs = std::max(e.max_abs, d);
      e.sum_abs += d;
      const long double dl = static_cast<long double>(d);
      e.sum_sq += dl * dl;
      if (ay != 0) {
        const long double rel = dl / static_cast<long double>(ay);
        e.sum_rel += rel;
        e.max_rel = std::max(e.max_rel, rel);
      }
      if (d != 0 &&
          !(dl <= static_cast<long double>(tol.atol) +
                      static_cast<long double>(tol.rtol) * static_cast<long double>(ay))) {
        if (e.first_viol < 0) e.first_viol = static_cast<int64_t>(b + i);
        ++e.viol;
        e.max_viol = std::max(e.max_viol, d);
      }
    }
  }
  return e;
}

// Drops the pages of `v`'s elements [begin, end) from this process (both ends rounded down
// to 2 MiB, the largest page-cache folio: a fault maps a whole folio, so dropping part of one
// only gets it mapped again; `tail` rounds the end to a page instead). Callers release in
// order, only data no thread will read again in this pass; the KLD pass re-reads from the page
// cache. (No MADV_SEQUENTIAL: with it a cold read kept far more pages mapped.)
inline void releasePages(const TensorView& v, uint64_t begin, uint64_t end, bool tail) {
  if (!v.releasable || end <= begin) return;
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  constexpr uintptr_t kRegion = uintptr_t(2) << 20;
  const size_t es = ir::dtypeSize(v.dtype);
  // Never below the page holding element 0: memory before it may be another mapping.
  const uintptr_t first = reinterpret_cast<uintptr_t>(v.data) & ~(page - 1);
  uintptr_t b = reinterpret_cast<uintptr_t>(v.data + begin * es) & ~(kRegion - 1);
  uintptr_t e = reinterpret_cast<uintptr_t>(v.data + end * es) & ~((tail ? page : kRegion) - 1);
  b = std::max(b, first);
  if (e > b) madvise(reinterpret_cast<void*>(b), e - b, MADV_DONTNEED);
}

}  // namespace asc::compare::detail
