// graph/tensor.h: ge::Shape, the dimensions host tiling functions take (Pad/UnPad tiling,
// tiling/tiling_api.h). The graph-building side of CANN's header (ge::Tensor, TensorDesc) is not
// part of asc-tools' SDK.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ge {

class Shape {
 public:
  Shape() = default;
  explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
  size_t GetDimNum() const { return dims_.size(); }
  /// Dimension `idx`; 0 when there is none.
  int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
  /// 0 on success, -1 when `idx` is outside the shape.
  int32_t SetDim(size_t idx, int64_t value) {
    if (idx >= dims_.size()) return -1;
    dims_[idx] = value;
    return 0;
  }
  std::vector<int64_t> GetDims() const { return dims_; }
  /// The product of the dimensions (1 for a scalar; 0 when a dimension is 0 or negative).
  int64_t GetShapeSize() const {
    int64_t n = 1;
    for (int64_t d : dims_) n = d > 0 ? n * d : 0;
    return n;
  }

 private:
  std::vector<int64_t> dims_;
};

}  // namespace ge
