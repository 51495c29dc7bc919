// advisor.cpp: see advisor.h.
#include "asc/compare/advisor.h"

#include <fmt/format.h>

#include <cmath>
#include <set>

namespace asc::compare {
namespace {

constexpr double kFp16Max = 65504.0;
constexpr double kFp16MinNormal = 6.103515625e-05;
constexpr double kCancellation = 64.0;  // feeding values this much larger than the result

bool sensitive(const std::string& t) {
  static const std::set<std::string> kTypes = {
      // ONNX names
      "Softmax", "LogSoftmax", "LayerNormalization", "InstanceNormalization", "GroupNormalization",
      "BatchNormalization", "ReduceSum", "ReduceMean", "ReduceProd", "ReduceL1", "ReduceL2",
      "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare", "Exp", "Log", "Pow", "Sqrt",
      "Reciprocal", "Div", "Erf", "Gelu",
      // CANN names
      "SoftmaxV2", "LogSoftmaxV2", "LayerNorm", "InstanceNorm", "GroupNorm", "BNInference",
      "BatchNorm", "ReduceSumD", "ReduceMeanD", "ReduceProdD", "ReduceLogSumExp", "Rsqrt",
      "RealDiv"};
  return kTypes.count(t) > 0;
}

bool additive(const std::string& t) {
  return t == "Sub" || t == "Add" || t == "AddV2" || t == "Sum" || t == "BiasAdd";
}

}  // namespace

Advice adviseFp16(const LayerFacts& f) {
  Advice a;
  if ((f.my_dtype != ir::DType::F16 && f.my_dtype != ir::DType::BF16) || !f.result) return a;
  const CompareResult& r = *f.result;
  const double gmax = r.golden_max_abs;
  const std::string who = f.source_name.empty() ? "this layer" : "'" + f.source_name + "'";
  const std::string keep_line =
      f.source_name.empty() ? "its node name" : "the line '" + f.source_name + "'";
  const std::string search =
      "mscompare debug_precision --model M.onnx --input ... finds the exact set; "
      "--precision_mode=allow_mix_precision keeps such ops fp32 by type";
  const uint64_t my_bad = r.my.nan + r.my.pos_inf + r.my.neg_inf;
  const uint64_t golden_bad = r.golden.nan + r.golden.pos_inf + r.golden.neg_inf;
  if ((std::isfinite(gmax) && gmax > kFp16Max) || my_bad > golden_bad) {
    a.cause = std::isfinite(gmax) && gmax > kFp16Max
                  ? fmt::format(
                        "fp16 overflow: golden values reach {:.4g}, past fp16's largest "
                        "number 65504",
                        gmax)
                  : fmt::format(
                        "fp16 overflow: {} inf/NaN on my side where the golden data has "
                        "{} (an intermediate value passed 65504)",
                        my_bad, golden_bad);
    a.fix = fmt::format(
        "keep {} and the ops that produce its large values in fp32 ({} in a "
        "--keep_dtype file); {}",
        who, keep_line, search);
  } else if (std::isfinite(gmax) && gmax < kFp16MinNormal) {
    a.cause = fmt::format(
        "fp16 underflow: every golden value is below fp16's smallest normal "
        "number 6.1e-05 (max |y| {:.3g}), where fp16 keeps few or no bits",
        gmax);
    a.fix = fmt::format("keep {} and the layers feeding it in fp32 ({} in a --keep_dtype file); {}",
                        who, keep_line, search);
  } else if (additive(f.op_type) && std::isfinite(gmax) && std::isfinite(f.feeding_max_abs) &&
             f.feeding_max_abs >= kCancellation * gmax) {
    const double spacing = std::exp2(std::floor(std::log2(f.feeding_max_abs)) - 10);
    a.cause = fmt::format(
        "loss in a large-offset subtraction: the values feeding this {} reach "
        "{:.4g}, its result only {:.4g}; fp16's spacing there ({:g}) swamps "
        "the difference",
        f.op_type, f.feeding_max_abs, gmax, spacing);
    a.fix = fmt::format(
        "keep {} and the ops that add the offset in fp32 ({} in a --keep_dtype "
        "file); {}",
        who, keep_line, search);
  } else if (sensitive(f.op_type)) {
    a.cause = fmt::format(
        "a precision-sensitive op ({}): fp16 storage of its inputs or result "
        "loses what it needs",
        f.op_type);
    a.fix = fmt::format(
        "keep {} in fp32 ({} in a --keep_dtype file), or convert with "
        "--precision_mode=allow_mix_precision, which keeps {} fp32",
        who, keep_line, f.op_type);
  } else {
    a.cause =
        "fp16 rounding accumulated over the layers before it (no overflow, underflow or "
        "cancellation at this layer)";
    a.fix =
        "run mscompare debug_precision --model M.onnx --input ... to find the nodes to keep "
        "in fp32, or convert with --precision_mode=allow_mix_precision";
  }
  return a;
}

}  // namespace asc::compare
