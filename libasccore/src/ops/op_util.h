// op_util.h: helpers shared by the op folders: broadcasting, axis handling, small tensors and
// element-wise constant evaluation. Private to src/ops.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "asc/ir/graph.h"
#include "asc/ops/op_def.h"
#include "ops/op_defs.h"

namespace asc::ops {

/// The node's OpDef, where family kernels read the facts that tell their ops apart (the scalar
/// function, the pooling kind, the recurrent cell); an unknown op gets an empty definition.
const OpDef& defOf(const ir::Node& n);

/// The window formulas of the convolution and pooling families (one place for both):
/// the extent of a dilated window, (k - 1) * d + 1;
int64_t windowExtent(int64_t k, int64_t d);
/// the output size of one spatial dim for explicit pads (ONNX's formula; with ceil_mode the last
/// window must still start inside the input or its begin padding);
int64_t windowOutDim(int64_t in, int64_t k, int64_t s, int64_t d, int64_t pad_begin,
                     int64_t pad_end, bool ceil_mode = false);
/// the pads auto_pad SAME_UPPER / SAME_LOWER give a forward walk: output ceil(in / s), the odd
/// pixel at the end (upper) or at the beginning.
void samePads(int64_t in, int64_t extent, int64_t s, bool upper, int64_t* begin, int64_t* end);

/// numpy-style broadcast of two shapes; nullopt when they are incompatible.
std::optional<ir::Shape> broadcastShapes(const ir::Shape& a, const ir::Shape& b);
/// Maps a possibly negative axis into [0, rank); nullopt when out of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);
/// Row-major strides of a shape.
std::vector<int64_t> stridesOf(const ir::Shape& s);

/// A new tensor of dtype/shape with zeroed storage; write through mutableData().
struct TensorBuilder {
  ir::DType dtype;
  ir::Shape shape;
  std::vector<uint8_t> bytes;
  TensorBuilder(ir::DType t, ir::Shape s);
  template <typename T>
  T* as() {
    return reinterpret_cast<T*>(bytes.data());
  }
  /// Stores v (given as double) at element i, converted to the dtype.
  void setFloat(int64_t i, double v);
  void setInt(int64_t i, int64_t v);
  ir::Tensor finish();
};

/// A 1-D int64 tensor.
ir::Tensor makeInt64Tensor(const std::vector<int64_t>& values, ir::Shape shape);

/// Element-wise n-ary evaluation with broadcasting. Integer dtypes go through `fi`, float
/// dtypes through `ff`; the result has dtype `out` (bool results: 0/1).
Result<ir::Tensor> evalBroadcast(const std::vector<ir::Tensor>& ins, ir::DType out,
                                 const ir::Shape& out_shape,
                                 const std::function<double(const double*)>& ff,
                                 const std::function<int64_t(const int64_t*)>& fi);

/// Infer helper for ops whose output has the shape and dtype of input 0.
Status inferSameAsInput0(InferContext& ctx);
/// Infer helper for broadcasting ops (all inputs broadcast; dtype of input 0).
Status inferBroadcast(InferContext& ctx);
/// Copies the bytes of a constant into a new Tensor with another shape (Reshape-like eval).
ir::Tensor reshapeTensor(const ir::Tensor& t, ir::Shape shape);

// ---- CANN spellings (OpDef::cannSpelling; docs/om-format.md, "Op spellings") ----
/// GE's data_format for a feature map of `rank` dims: "NCHW" (4), "NCDHW" (5), else "ND".
const char* cannDataFormat(size_t rank);
/// A per-spatial-dim list (strides, dilations, kernel) in data_format order: [1, 1, v...].
std::vector<int64_t> cannSpatialList(const std::vector<int64_t>& v);
/// ONNX pads (every begin, then every end) in GE's order: each spatial dim's begin and end
/// ([top, bottom, left, right] in 2-D).
std::vector<int64_t> cannPads(const std::vector<int64_t>& onnx_pads);

}  // namespace asc::ops
