// precision.h: atc's --precision_mode. It decides which nodes compute in fp16 (as the NPU would)
// and rewrites the graph so those nodes take fp16 tensors: constants are stored as fp16, Cast
// nodes convert where an fp16 region meets an fp32 one, and model inputs and outputs keep their
// type unless --input_fp16_nodes / --output_type say otherwise. The CPU runtime then stores
// fp16 tensors as fp16 and computes in fp32, so results drift the way an NPU's do.
#pragma once

#include <set>
#include <string>

#include "asc/asc.h"
#include "asc/ir/graph.h"
#include "asc/passes/pass.h"
#include "asc/support/status.h"

namespace asc::passes {

struct PrecisionOptions {
  /// force_fp32 | must_keep_origin_dtype (nothing changes) | force_fp16 (every float op) |
  /// allow_fp32_to_fp16 (the ops an NPU runs only in fp16: Conv, ConvTranspose, MatMul, Gemm) |
  /// allow_mix_precision (fp16 except precision-sensitive ops such as Softmax and reductions).
  std::string mode = "force_fp32";
  /// Node names (or op types) that keep fp32 (--keep_dtype).
  std::set<std::string> keep_fp32;
  /// Model inputs fed as fp16 (--input_fp16_nodes).
  std::set<std::string> fp16_inputs;
  /// Output element type for every float output ("" keeps the model's; "FP16"; "FP32").
  std::string output_type;
  /// --modify_mixlist changes (op types, CANN or ONNX names), for allow_mix_precision only:
  /// black-list ops stay fp32, white-list and gray-list ops compute in fp16.
  std::set<std::string> black_add, black_remove, fp16_add;
};

/// Reads a --modify_mixlist JSON file into `opts`. E13001 when it cannot be opened, E10032 when
/// it is not the expected JSON.
ASC_API Status readMixList(const std::string& path, PrecisionOptions* opts);

/// E10001 for an unknown mode; E1001 naming an --input_fp16_nodes name that is no model input.
ASC_API Status applyPrecision(ir::Graph& g, const PrecisionOptions& opts, PassContext& ctx);

}  // namespace asc::passes
