// index_core.h: the index walks of GatherElements, ScatterElements, GatherND and ScatterND on raw
// buffers, shared by their kernels (index_kernel.cpp) and their constant evaluation (index.cpp).
// Indices are int32 or int64; negative ones count from the end of their axis. An index out of
// range is skipped (a gathered element becomes 0) instead of reading or writing out of bounds:
// shape inference rejects constant out-of-range indices, run-time ones are undefined in ONNX.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "asc/ir/graph.h"

namespace asc::ops::index {

inline int64_t readIndex(const void* p, bool i64, int64_t i) {
  return i64 ? static_cast<const int64_t*>(p)[i] : static_cast<const int32_t*>(p)[i];
}

inline std::vector<int64_t> rowMajorStrides(const ir::Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (int64_t i = static_cast<int64_t>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

/// For each element t of `indices` (shape is): f(t, offset into data or -1 when out of range),
/// the data offset being t's multi-index with the `axis` coordinate replaced by the index value.
template <typename F>
void forEachElementIndex(const ir::Shape& ds, const ir::Shape& is, const void* idx, bool i64,
                         int64_t axis, F f) {
  const auto dst = rowMajorStrides(ds);
  const int64_t n = ir::numElements(is), r = static_cast<int64_t>(is.size());
  std::vector<int64_t> coord(r, 0);
  for (int64_t t = 0; t < n; ++t) {
    int64_t v = readIndex(idx, i64, t);
    if (v < 0) v += ds[axis];
    int64_t off = -1;
    if (v >= 0 && v < ds[axis]) {
      off = 0;
      for (int64_t d = 0; d < r; ++d) off += (d == axis ? v : coord[d]) * dst[d];
    }
    f(t, off);
    for (int64_t d = r - 1; d >= 0; --d) {
      if (++coord[d] < is[d]) break;
      coord[d] = 0;
    }
  }
}

/// For each index tuple of `indices` (shape is, last dim k; batch_dims b): f(tuple number, data
/// offset of the slice or -1, slice length in elements). The tuples run in row-major order, so
/// tuple number * slice length is the position in the gathered output / the updates.
template <typename F>
void forEachTuple(const ir::Shape& ds, const ir::Shape& is, const void* idx, bool i64, int64_t b,
                  F f) {
  const int64_t k = is.back();
  const auto dst = rowMajorStrides(ds);
  int64_t slice = 1;
  for (size_t d = static_cast<size_t>(b + k); d < ds.size(); ++d) slice *= ds[d];
  int64_t batches = 1, batch_block = 1;
  for (int64_t d = 0; d < b; ++d) batches *= ds[d];
  for (size_t d = static_cast<size_t>(b); d < ds.size(); ++d) batch_block *= ds[d];
  const int64_t tuples = ir::numElements(is) / (k ? k : 1);
  const int64_t per_batch = batches ? tuples / batches : 0;
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t off = (per_batch ? t / per_batch : 0) * batch_block;
    for (int64_t j = 0; j < k && off >= 0; ++j) {
      int64_t v = readIndex(idx, i64, t * k + j);
      const int64_t dim = ds[b + j];
      if (v < 0) v += dim;
      off = v >= 0 && v < dim ? off + v * dst[b + j] : -1;
    }
    f(t, off, slice);
  }
}

enum class Reduction { None, Add, Mul, Max, Min };

inline Reduction reductionOf(const std::string& s) {
  if (s == "add") return Reduction::Add;
  if (s == "mul") return Reduction::Mul;
  if (s == "max") return Reduction::Max;
  if (s == "min") return Reduction::Min;
  return Reduction::None;
}

template <typename T>
void combine(T* dst, const T* src, Reduction r) {
  switch (r) {
    case Reduction::Add:
      *dst = static_cast<T>(*dst + *src);
      break;
    case Reduction::Mul:
      *dst = static_cast<T>(*dst * *src);
      break;
    case Reduction::Max:
      *dst = *src > *dst ? *src : *dst;
      break;
    case Reduction::Min:
      *dst = *src < *dst ? *src : *dst;
      break;
    default:
      *dst = *src;
      break;
  }
}

/// Writes `n` elements of `src` into `dst` with reduction r; T is the element type (any type of
/// the element's size when r is None).
template <typename T>
void combineRun(uint8_t* dst, const uint8_t* src, int64_t n, Reduction r) {
  if (r == Reduction::None) {
    std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(T));
    return;
  }
  T* d = reinterpret_cast<T*>(dst);
  const T* s = reinterpret_cast<const T*>(src);
  for (int64_t i = 0; i < n; ++i) combine(d + i, s + i, r);
}

}  // namespace asc::ops::index
