// layout_pack.h: test-side packers into the Ascend device layouts (NC1HWC0, FRACTAL_Z,
// FRACTAL_NZ), written independently of libasccore's converter: they walk the origin tensor
// and scatter each element to the position the public definition gives it
// (asc/tensorio/layout_convert.h lists the formulas), filling padding with `pad` bytes.
// Used by the unit tests and by asc_make_dump.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "asc/ir/tensor.h"

namespace asc::test {

inline int64_t ceilDivT(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Flat NC1HWC0 index of origin element (n, c, h, w) for origin dims C, H, W.
inline int64_t nc1hwc0Index(int64_t n, int64_t c, int64_t h, int64_t w, int64_t C, int64_t H,
                            int64_t W, int64_t c0) {
  const int64_t c1 = ceilDivT(C, c0);
  return (((n * c1 + c / c0) * H + h) * W + w) * c0 + c % c0;
}

/// Flat FRACTAL_Z index of weight element (n, c, h, w) for origin dims N, C, H, W.
inline int64_t fractalZIndex(int64_t n, int64_t c, int64_t h, int64_t w, int64_t N, int64_t H,
                             int64_t W, int64_t n0, int64_t c0) {
  const int64_t n1 = ceilDivT(N, n0);
  const int64_t row = (c / c0) * H * W + h * W + w;
  return ((row * n1 + n / n0) * n0 + n % n0) * c0 + c % c0;
}

/// Flat FRACTAL_NZ index of element (b, m, n) of a batch of M x N matrices.
inline int64_t fractalNZIndex(int64_t b, int64_t m, int64_t n, int64_t M, int64_t N, int64_t m0,
                              int64_t n0) {
  const int64_t m1 = ceilDivT(M, m0), n1 = ceilDivT(N, n0);
  return (((b * n1 + n / n0) * m1 + m / m0) * m0 + m % m0) * n0 + n % n0;
}

namespace detail {
inline ir::Tensor packed(const ir::Tensor& origin, ir::Shape shape, uint8_t pad,
                         std::vector<uint8_t>* bytes) {
  ir::Tensor t;
  t.dtype = origin.dtype;
  t.shape = std::move(shape);
  bytes->assign(static_cast<size_t>(t.numel()) * ir::dtypeSize(t.dtype), pad);
  return t;
}
inline void put(std::vector<uint8_t>* dst, int64_t di, const ir::Tensor& src, int64_t si) {
  const size_t es = ir::dtypeSize(src.dtype);
  std::memcpy(dst->data() + static_cast<size_t>(di) * es,
              src.data->data() + static_cast<size_t>(si) * es, es);
}
}  // namespace detail

/// NCHW [N, C, H, W] -> NC1HWC0 [N, ceil(C/c0), H, W, c0].
inline ir::Tensor packNC1HWC0(const ir::Tensor& x, int64_t c0, uint8_t pad = 0) {
  const int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
  std::vector<uint8_t> b;
  ir::Tensor t = detail::packed(x, {N, ceilDivT(C, c0), H, W, c0}, pad, &b);
  int64_t i = 0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w)
          detail::put(&b, nc1hwc0Index(n, c, h, w, C, H, W, c0), x, i++);
  t.data = ir::Blob::fromVector(std::move(b));
  return t;
}

/// NCHW weight [N, C, H, W] -> FRACTAL_Z [ceil(C/c0)*H*W, ceil(N/n0), n0, c0].
inline ir::Tensor packFractalZ(const ir::Tensor& x, int64_t c0, int64_t n0 = 16, uint8_t pad = 0) {
  const int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
  std::vector<uint8_t> b;
  ir::Tensor t = detail::packed(x, {ceilDivT(C, c0) * H * W, ceilDivT(N, n0), n0, c0}, pad, &b);
  int64_t i = 0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w)
          detail::put(&b, fractalZIndex(n, c, h, w, N, H, W, n0, c0), x, i++);
  t.data = ir::Blob::fromVector(std::move(b));
  return t;
}

/// ND [B..., M, N] (rank 1: M = 1) -> FRACTAL_NZ [B..., ceil(N/n0), ceil(M/m0), m0, n0].
inline ir::Tensor packFractalNZ(const ir::Tensor& x, int64_t n0 = 16, int64_t m0 = 16,
                                uint8_t pad = 0) {
  const size_t r = x.shape.size();
  const int64_t N = x.shape[r - 1], M = r >= 2 ? x.shape[r - 2] : 1;
  ir::Shape shape(x.shape.begin(), x.shape.end() - (r >= 2 ? 2 : 1));
  int64_t B = 1;
  for (int64_t d : shape) B *= d;
  for (int64_t d : {ceilDivT(N, n0), ceilDivT(M, m0), m0, n0}) shape.push_back(d);
  std::vector<uint8_t> b;
  ir::Tensor t = detail::packed(x, shape, pad, &b);
  int64_t i = 0;
  for (int64_t bi = 0; bi < B; ++bi)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n)
        detail::put(&b, fractalNZIndex(bi, m, n, M, N, m0, n0), x, i++);
  t.data = ir::Blob::fromVector(std::move(b));
  return t;
}

}  // namespace asc::test
