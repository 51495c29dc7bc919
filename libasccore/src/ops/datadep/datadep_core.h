// datadep_core.h: the evaluation of the ops whose output shape depends on input data (NonZero,
// Compress, Unique, NonMaxSuppression). Shape inference runs them on the constant inputs to learn
// the shapes; constant evaluation runs them again for the values. Private to src/ops/datadep.
#pragma once

#include <vector>

#include "ops/op_util.h"

namespace asc::ops::datadep {

/// Each function takes the node (for its attributes) and one tensor per input (an omitted
/// optional input is a Tensor without dtype), and returns one tensor per output of the node.
/// Fails (E16001, naming the node) on values the op cannot take.
Result<std::vector<ir::Tensor>> nonZero(const ir::Node& n, const std::vector<ir::Tensor>& in);
Result<std::vector<ir::Tensor>> compress(const ir::Node& n, const std::vector<ir::Tensor>& in);
Result<std::vector<ir::Tensor>> unique(const ir::Node& n, const std::vector<ir::Tensor>& in);
Result<std::vector<ir::Tensor>> nonMaxSuppression(const ir::Node& n,
                                                  const std::vector<ir::Tensor>& in);

/// The raw bytes of a tensor (nullptr when it holds no element).
inline const uint8_t* bytesOf(const ir::Tensor& t) {
  return t.data && t.numel() > 0 ? t.data->data() : nullptr;
}

}  // namespace asc::ops::datadep
