// advisor.h: the likely cause of a comparison's first divergence in an fp16 run, and the fix,
// from what the comparison knows about that layer (its op type, its numbers, the layers before
// it). mscompare prints it under the summary ("advice"); the search that finds the exact fix is
// mscompare debug_precision.
#pragma once

#include <limits>
#include <string>

#include "asc/asc.h"
#include "asc/compare/metrics.h"
#include "asc/ir/dtype.h"

namespace asc::compare {

struct LayerFacts {
  std::string op_type;      // CANN or ONNX type ("" when unknown)
  std::string source_name;  // the source-model node to keep (the last of a fused group)
  ir::DType my_dtype = ir::DType::Undefined;
  const CompareResult* result = nullptr;
  /// The largest |y| among the layers just before it in execution order (NaN: unknown).
  double feeding_max_abs = std::numeric_limits<double>::quiet_NaN();
};

struct Advice {
  std::string cause;  // empty: no fp16 cause to name (x is not fp16 or bf16)
  std::string fix;
};

/// In this order: overflow (golden values past 65504, or infinities and NaN only on my side),
/// underflow (every golden value below fp16's smallest normal number), loss in a large-offset
/// subtraction (an Add/Sub whose result is at least 64 times smaller than the values feeding
/// it), a precision-sensitive op type (softmax, normalizations, reductions, exp/log/pow/sqrt,
/// division), else rounding accumulated over the layers before it.
ASC_API Advice adviseFp16(const LayerFacts& facts);

}  // namespace asc::compare
