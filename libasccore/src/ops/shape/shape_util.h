// shape_util.h: helpers the shape-family op files share (constant evaluation, axes).
#pragma once

#include <algorithm>
#include <cstring>
#include <vector>

#include "ops/op_util.h"

namespace asc::ops::shape_detail {

template <typename... Args>
inline Status evalFail(const ir::Node& n, fmt::format_string<Args...> f, Args&&... args) {
  return Status::error(ErrorCode::InvalidModel, "node '{}' ({}): {}", n.name, n.op_type,
                       fmt::format(f, std::forward<Args>(args)...));
}

using Eval = Result<std::vector<ir::Tensor>>;

inline Eval one(ir::Tensor t) { return std::vector<ir::Tensor>{std::move(t)}; }

// A tensor of `out_shape` whose element at multi-index idx is the input element at flat offset
// src(idx), or `fill` (one element of the dtype) when src returns -1.
template <typename SrcFn>
ir::Tensor mapElements(const ir::Tensor& in, const ir::Shape& out_shape, SrcFn src,
                       const uint8_t* fill = nullptr) {
  TensorBuilder b(in.dtype, out_shape);
  const size_t esz = ir::dtypeSize(in.dtype);
  const int64_t n = ir::numElements(out_shape);
  const int64_t r = static_cast<int64_t>(out_shape.size());
  std::vector<int64_t> idx(out_shape.size(), 0);
  for (int64_t e = 0; e < n; ++e) {
    int64_t off = src(idx);
    uint8_t* dst = b.bytes.data() + e * esz;
    if (off >= 0)
      std::memcpy(dst, in.data->data() + off * esz, esz);
    else if (fill)
      std::memcpy(dst, fill, esz);
    for (int64_t d = r - 1; d >= 0; --d) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return b.finish();
}

inline int64_t product(const ir::Shape& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to && i < s.size(); ++i) p *= s[i];
  return p;
}

// Normalizes a list of axes against `rank`, fails on out-of-range or repeated axes, sorts.
inline Result<std::vector<int64_t>> normalizeAxes(InferContext& ctx,
                                                  const std::vector<int64_t>& axes, int64_t rank,
                                                  bool sort) {
  std::vector<int64_t> out;
  for (int64_t a : axes) {
    auto n = normalizeAxis(a, rank);
    if (!n) return ctx.fail("axis {} is out of range for rank {}", a, rank);
    if (std::find(out.begin(), out.end(), *n) != out.end())
      return ctx.fail("axes [{}] name axis {} twice", ir::shapeToString(axes), *n);
    out.push_back(*n);
  }
  if (sort) std::sort(out.begin(), out.end());
  return out;
}

// Moves constant 1-D integer input i into the int-list attribute `attr`.
inline Status moveParam(InferContext& ctx, size_t i, const char* attr) {
  if (!ctx.hasInput(i)) return Status::ok();
  if (ctx.rank(i) > 1)
    return ctx.fail("input {} ('{}') must be 1-D, it has shape [{}]", i, ctx.input(i).name,
                    ir::shapeToString(ctx.shape(i)));
  if (ir::isFloat(ctx.dtype(i)))
    return ctx.fail("input {} ('{}') must be an integer tensor, it is {}", i, ctx.input(i).name,
                    ir::dtypeName(ctx.dtype(i)));
  return ctx.moveInputToInts(i, attr);
}

inline Eval evalReshapeLike(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  return one(reshapeTensor(in[0], n.outputs[0]->shape));
}

}  // namespace asc::ops::shape_detail
