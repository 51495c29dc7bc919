// metrics.h: the ten metrics of the Ascend accuracy comparison tool (msaccucmp, ascend-facts.md
// 5.2), in its order and with its formulas, NaN rules and 6-decimal formatting, plus NaN/Inf
// counts per side and an elementwise tolerance verdict |x - y| <= atol + rtol * |y|.
//
// x is "my" data (the NPU / comparison side), y the golden (baseline) side. Both are read in
// chunks, converted to double and accumulated in double; chunks run in parallel (OpenMP) and are
// merged in a fixed order, so results do not depend on the thread count. File-backed inputs are
// released page by page once read, so memory stays flat however large the tensors are.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/dtype.h"
#include "asc/support/status.h"

namespace asc::compare {

/// The built-in algorithms in msaccucmp's order (also the CSV column order; -alg index = value).
enum class Metric : int {
  CosineSimilarity = 0,
  MaxAbsoluteError,
  AccumulatedRelativeError,
  RelativeEuclideanDistance,
  KullbackLeiblerDivergence,
  StandardDeviation,
  MeanAbsoluteError,
  RootMeanSquareError,
  MaxRelativeError,
  MeanRelativeError,
};
constexpr int kMetricCount = 10;

/// "CosineSimilarity", ... (the CSV column names).
ASC_API const char* metricName(Metric m);
/// Accepts a CamelCase name ("CosineSimilarity"), its snake_case form ("cosine_similarity"), or
/// an index 0..9. E10001 otherwise (the message lists the names).
ASC_API Result<Metric> parseMetric(const std::string& text);
/// A comma-separated list of metrics, or "all". E10001 on an unknown entry.
ASC_API Result<std::vector<Metric>> parseMetricList(const std::string& text);

/// A flat run of elements: native byte order unless `big_endian`. `releasable` says the bytes
/// live in a read-only file mapping whose pages may be dropped once read (never set it for
/// heap memory).
struct TensorView {
  ir::DType dtype = ir::DType::Undefined;
  const uint8_t* data = nullptr;
  uint64_t count = 0;
  bool big_endian = false;
  bool releasable = false;
};

struct Tolerance {
  double atol = 0;
  double rtol = 0;
  /// NaN on both sides counts as equal (numpy's assert_allclose, which the ONNX backend tests
  /// use); off by default: msaccucmp's verdict fails every NaN.
  bool equal_nan = false;
};
/// The default tolerance for comparing data of dtype `t` (use the less precise side's dtype):
/// fp16 1e-3/1e-3, bf16 8e-3/8e-3, fp32 1e-5/1e-5, fp64 1e-8/1e-7, integers and bool exact.
ASC_API Tolerance defaultTolerance(ir::DType t);
/// The less precise of two dtypes (for choosing a default tolerance).
ASC_API ir::DType lessPrecise(ir::DType a, ir::DType b);
/// Whether the comparison tool can read elements of `t` (every int, bool, fp16, bf16, fp32, fp64).
ASC_API bool isComparable(ir::DType t);

struct CompareOptions {
  /// Metrics to compute; empty means all ten.
  std::vector<Metric> metrics;
  Tolerance tolerance;
  /// File names used in fail reasons ("All the data is zero in <file>").
  std::string my_name, golden_name;
  /// Elements per window (0: the default, 64 Mi). Results do not depend on it; tests use small
  /// windows to cover many of them.
  uint64_t window_elements = 0;
  /// Threads (0: OpenMP's default, all cores). Results do not depend on it: chunks are merged in
  /// a fixed order.
  int threads = 0;
};

struct SideCounts {
  uint64_t nan = 0, pos_inf = 0, neg_inf = 0;
};

struct CompareResult {
  uint64_t count = 0;
  /// The formatted cell of each metric (index = Metric value), e.g. "0.999998", "NaN",
  /// "(0.102;1.000),(0.101;0.999)"; empty when the metric was not asked for.
  std::array<std::string, kMetricCount> text;
  /// The numeric value (NaN when the metric has none, e.g. StandardDeviation).
  std::array<double, kMetricCount> value{};
  /// Reasons joined with "; " (CompareFailReason), empty when none.
  std::string fail_reason;
  SideCounts my, golden;
  /// The largest |y| of the golden data (NaN for an empty tensor), for diagnoses such as fp16
  /// underflow.
  double golden_max_abs = std::numeric_limits<double>::quiet_NaN();
  /// Elements outside |x - y| <= atol + rtol * |y| (equal values, including equal infinities,
  /// always pass; NaN never does, unless tolerance.equal_nan and both are NaN), and the first
  /// such element.
  uint64_t violations = 0;
  int64_t first_violation = -1;
  double max_violation_diff = 0;  // the largest |x - y| among violating elements (NaN if NaN)
  Tolerance tolerance;
  bool passed() const { return violations == 0; }
};

/// Compares two tensors element by element. E10001 when the element counts differ or a dtype
/// is not comparable (the message names both files and says what to do).
ASC_API Result<CompareResult> compareTensors(const TensorView& my, const TensorView& golden,
                                             const CompareOptions& options);

/// '{:.6f}' as msaccucmp prints it; NaN as "NaN", infinities as "inf"/"-inf".
ASC_API std::string formatValue(double v);

}  // namespace asc::compare
