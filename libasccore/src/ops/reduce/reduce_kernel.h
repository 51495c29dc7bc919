// reduce_kernel.h: the reductions (see reduce_kernel.cpp), and the per-kind accumulation their
// kernel and their constant evaluation share (in double).
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "asc/ops/kernel.h"

namespace asc::ops {

enum class ReduceKind { Sum, Mean, Max, Min, Prod, L1, L2, SumSquare, LogSum, LogSumExp };

/// The kind of a Reduce* op type (Sum for an unknown one).
inline ReduceKind reduceKindOf(const std::string& op) {
  static const std::pair<const char*, ReduceKind> kKinds[] = {
      {"ReduceMean", ReduceKind::Mean},
      {"ReduceMax", ReduceKind::Max},
      {"ReduceMin", ReduceKind::Min},
      {"ReduceProd", ReduceKind::Prod},
      {"ReduceL1", ReduceKind::L1},
      {"ReduceL2", ReduceKind::L2},
      {"ReduceSumSquare", ReduceKind::SumSquare},
      {"ReduceLogSum", ReduceKind::LogSum},
      {"ReduceLogSumExp", ReduceKind::LogSumExp}};
  for (const auto& [name, kind] : kKinds)
    if (op == name) return kind;
  return ReduceKind::Sum;
}

inline double reduceInit(ReduceKind k) {
  switch (k) {
    case ReduceKind::Max:
      return -std::numeric_limits<double>::infinity();
    case ReduceKind::Min:
      return std::numeric_limits<double>::infinity();
    case ReduceKind::Prod:
      return 1.0;
    default:
      return 0.0;
  }
}

/// Folds one element into the accumulator (NaN wins in Max and Min).
inline double reduceStep(ReduceKind k, double acc, double v) {
  switch (k) {
    case ReduceKind::Max:
      return std::isnan(v) || v > acc ? v : acc;
    case ReduceKind::Min:
      return std::isnan(v) || v < acc ? v : acc;
    case ReduceKind::Prod:
      return acc * v;
    case ReduceKind::L1:
      return acc + std::fabs(v);
    case ReduceKind::L2:
    case ReduceKind::SumSquare:
      return acc + v * v;
    case ReduceKind::LogSumExp:
      return acc + std::exp(v);
    default:
      return acc + v;
  }
}

/// The output from the accumulator over `count` elements.
inline double reduceFinish(ReduceKind k, double acc, int64_t count) {
  switch (k) {
    case ReduceKind::Mean:
      return count ? acc / static_cast<double>(count) : std::numeric_limits<double>::quiet_NaN();
    case ReduceKind::L2:
      return std::sqrt(acc);
    case ReduceKind::LogSum:
    case ReduceKind::LogSumExp:
      return std::log(acc);
    default:
      return acc;
  }
}

Result<std::unique_ptr<Kernel>> createReduceKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createArgReduceKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createCumSumKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createTopKKernel(const KernelInit& k);

/// CumSum of x (shape s) along axis into out, both of T; exclusive leaves out each element's own
/// value, reverse sums from the end.
template <typename T>
void cumsum(const T* x, T* out, const ir::Shape& s, int64_t axis, bool exclusive, bool reverse) {
  int64_t outer = 1, n = 1, inner = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d)
    (d < axis ? outer : d > axis ? inner : n) *= s[d];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      T acc = T(0);
      for (int64_t step = 0; step < n; ++step) {
        const int64_t j = reverse ? n - 1 - step : step;
        const int64_t at = (o * n + j) * inner + i;
        if (exclusive) {
          out[at] = acc;
          acc = static_cast<T>(acc + x[at]);
        } else {
          acc = static_cast<T>(acc + x[at]);
          out[at] = acc;
        }
      }
    }
}

}  // namespace asc::ops
