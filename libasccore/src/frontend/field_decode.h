// field_decode.h: the one decoder of tensor values kept in a repeated protobuf field (ONNX's
// float_data, int32_data, ...; TensorFlow's float_val, int_val, ...), shared by the frontends.
// Private to src/frontend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "asc/ir/tensor.h"

namespace asc::frontend {

/// n values of the field as a blob of Dst, each converted with static_cast (an int32 field
/// holding fp16/bf16 bits keeps their low 16 bits). With `repeat_last` a shorter field repeats
/// its last value (TensorFlow's splat constants) and an empty one gives zeros; without it the
/// caller has checked the field holds at least n values.
template <typename Dst, typename Field>
std::shared_ptr<const ir::Blob> blobFromField(const Field& f, size_t n, bool repeat_last) {
  std::vector<uint8_t> bytes(n * sizeof(Dst));
  Dst* d = reinterpret_cast<Dst*>(bytes.data());
  const size_t k = static_cast<size_t>(f.size());
  for (size_t i = 0; i < n; ++i) {
    if (k == 0) {
      d[i] = Dst{};
      continue;
    }
    const size_t at = repeat_last && i >= k ? k - 1 : i;
    d[i] = static_cast<Dst>(f.Get(static_cast<int>(at)));
  }
  return ir::Blob::fromVector(std::move(bytes));
}

}  // namespace asc::frontend
