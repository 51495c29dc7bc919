// metrics.cpp: the streaming comparison. Data is walked in windows of kWindow elements; each
// window is cut into chunks of kChunk elements that threads convert to double and reduce into
// one Acc each; the window's Accs are then merged in chunk order (so sums do not depend on the
// thread count) and the window's file pages are released. KullbackLeiblerDivergence needs each
// side's min and max first, so it takes a second pass over the data.
#include "asc/compare/metrics.h"

#include <omp.h>

#include <fmt/format.h>
#include <immintrin.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <thread>

#include "asc/support/fp16.h"
#include "compare/chunk_load.h"
#include "compare/kld_kernel.h"
#include "cpu/convert.h"

namespace asc::compare {
using namespace detail;
namespace {

using detail::kChunk;
constexpr int64_t kGroup = 64;  // chunks a thread takes at a time (2 MiB of float32 a side)
constexpr int64_t kAhead = 8;   // groups a thread may run ahead of the slowest one
constexpr uint64_t kWindow = uint64_t(1) << 26;  // elements per window (one Acc per chunk kept)
constexpr double kEps = DBL_EPSILON;             // np.finfo(float).eps
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* const kNames[kMetricCount] = {"CosineSimilarity",          "MaxAbsoluteError",
                                          "AccumulatedRelativeError",  "RelativeEuclideanDistance",
                                          "KullbackLeiblerDivergence", "StandardDeviation",
                                          "MeanAbsoluteError",         "RootMeanSquareError",
                                          "MaxRelativeError",          "MeanRelativeError"};

std::string snakeCase(const char* camel) {
  std::string s;
  for (const char* p = camel; *p; ++p) {
    if (std::isupper(static_cast<unsigned char>(*p))) {
      if (!s.empty()) s += '_';
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
    } else {
      s += *p;
    }
  }
  return s;
}

// ---- accumulation --------------------------------------------------------------------------

struct Acc {
  uint64_t n = 0;
  double mean_x = 0, m2_x = 0, mean_y = 0, m2_y = 0;  // Chan et al. merge for StandardDeviation
  double sxy = 0, sxx = 0, syy = 0, sdd = 0, sabs = 0, srel = 0;
  double max_abs = 0, max_rel = 0;
  double min_x = kInf, max_x = -kInf, min_y = kInf, max_y = -kInf;
  uint64_t nan_x = 0, pinf_x = 0, ninf_x = 0, nan_y = 0, pinf_y = 0, ninf_y = 0;
  uint64_t nan_abs = 0, nan_rel = 0, viol = 0;
  int64_t first_viol = -1;
  double max_viol = 0;
  bool nan_viol = false;

  void merge(const Acc& o) {
    if (o.n == 0) return;
    if (n == 0) {
      *this = o;
      return;
    }
    const double na = static_cast<double>(n), nb = static_cast<double>(o.n), nt = na + nb;
    const double dx = o.mean_x - mean_x, dy = o.mean_y - mean_y;
    m2_x += o.m2_x + dx * dx * na * nb / nt;
    m2_y += o.m2_y + dy * dy * na * nb / nt;
    mean_x += dx * nb / nt;
    mean_y += dy * nb / nt;
    n += o.n;
    sxy += o.sxy, sxx += o.sxx, syy += o.syy, sdd += o.sdd, sabs += o.sabs, srel += o.srel;
    max_abs = std::max(max_abs, o.max_abs), max_rel = std::max(max_rel, o.max_rel);
    min_x = std::min(min_x, o.min_x), max_x = std::max(max_x, o.max_x);
    min_y = std::min(min_y, o.min_y), max_y = std::max(max_y, o.max_y);
    nan_x += o.nan_x, pinf_x += o.pinf_x, ninf_x += o.ninf_x;
    nan_y += o.nan_y, pinf_y += o.pinf_y, ninf_y += o.ninf_y;
    nan_abs += o.nan_abs, nan_rel += o.nan_rel;
    if (o.viol) {
      if (first_viol < 0) first_viol = o.first_viol;
      max_viol = std::max(max_viol, o.max_viol);
      nan_viol = nan_viol || o.nan_viol;
    }
    viol += o.viol;
  }
};

// Scalar form of one element of the hot loop (the tail after the last full vector).
struct Lane {
  double sx = 0, sy = 0, sxy = 0, sxx = 0, syy = 0, sdd = 0, sabs = 0, srel = 0;
  double max_abs = 0, max_rel = 0, min_x = kInf, max_x = -kInf, min_y = kInf, max_y = -kInf;
  double max_viol = 0;
  uint64_t nonfinite = 0, viol = 0;
  void add(double a, double b, double atol, double rtol) {
    const double d = a - b, ad = std::fabs(d), ab = std::fabs(b);
    sx += a, sy += b, sxy += a * b, sxx += a * a, syy += b * b, sdd += d * d, sabs += ad;
    max_abs = ad > max_abs ? ad : max_abs;
    const double r = ab > kEps ? std::fabs(a / b - 1.0) : 0.0;
    srel += r;
    max_rel = r > max_rel ? r : max_rel;
    min_x = a < min_x ? a : min_x, max_x = a > max_x ? a : max_x;
    min_y = b < min_y ? b : min_y, max_y = b > max_y ? b : max_y;
    nonfinite += !(std::fabs(a) <= DBL_MAX) || !(ab <= DBL_MAX);
    if (!(ad <= atol + rtol * ab || a == b)) {
      ++viol;
      max_viol = ad > max_viol ? ad : max_viol;
    }
  }
};

double hsum(__m256d v) {
  alignas(32) double t[4];
  _mm256_store_pd(t, v);
  return (t[0] + t[1]) + (t[2] + t[3]);
}
double hmax(__m256d v) {
  alignas(32) double t[4];
  _mm256_store_pd(t, v);
  return std::max(std::max(t[0], t[1]), std::max(t[2], t[3]));
}
double hmin(__m256d v) {
  alignas(32) double t[4];
  _mm256_store_pd(t, v);
  return std::min(std::min(t[0], t[1]), std::min(t[2], t[3]));
}

inline __m256d load4(const double* p) { return _mm256_loadu_pd(p); }
inline __m256d load4(const float* p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }

// T is double (a converted chunk) or float (float32 data read in place, 4-byte aligned).
template <typename T>
void reduceChunk(const T* x, const T* y, size_t n, uint64_t offset, Tolerance tol, Acc* out) {
  // The hot loop (AVX2, four doubles a step) keeps to sums, extrema, a violation count and a
  // non-finite flag; NaN/Inf details and the first violating element are worked out
  // afterwards, only for the rare chunks that need them. max_pd/min_pd return their second
  // operand when the first is NaN, so NaN never enters an extremum (NaN is counted instead).
  const double atol = tol.atol, rtol = tol.rtol;
  const __m256d sign = _mm256_set1_pd(-0.0), one = _mm256_set1_pd(1.0);
  const __m256d eps = _mm256_set1_pd(kEps), big = _mm256_set1_pd(DBL_MAX);
  const __m256d vatol = _mm256_set1_pd(atol), vrtol = _mm256_set1_pd(rtol);
  __m256d sx = _mm256_setzero_pd(), sy = sx, sxy = sx, sxx = sx, syy = sx, sdd = sx, sabs = sx;
  __m256d srel = sx, max_abs = sx, max_rel = sx, max_viol = sx, nonfinite = sx;
  __m256d min_x = _mm256_set1_pd(kInf), min_y = min_x;
  __m256d max_x = _mm256_set1_pd(-kInf), max_y = max_x;
  __m256i viol = _mm256_setzero_si256();
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256d a = load4(x + i), b = load4(y + i);
    const __m256d d = _mm256_sub_pd(a, b);
    const __m256d ad = _mm256_andnot_pd(sign, d), ab = _mm256_andnot_pd(sign, b);
    sx = _mm256_add_pd(sx, a);
    sy = _mm256_add_pd(sy, b);
    sxy = _mm256_fmadd_pd(a, b, sxy);
    sxx = _mm256_fmadd_pd(a, a, sxx);
    syy = _mm256_fmadd_pd(b, b, syy);
    sdd = _mm256_fmadd_pd(d, d, sdd);
    sabs = _mm256_add_pd(sabs, ad);
    max_abs = _mm256_max_pd(ad, max_abs);
    const __m256d q = _mm256_andnot_pd(sign, _mm256_sub_pd(_mm256_div_pd(a, b), one));
    const __m256d r = _mm256_and_pd(_mm256_cmp_pd(ab, eps, _CMP_GT_OQ), q);
    srel = _mm256_add_pd(srel, r);
    max_rel = _mm256_max_pd(r, max_rel);
    min_x = _mm256_min_pd(a, min_x);
    max_x = _mm256_max_pd(a, max_x);
    min_y = _mm256_min_pd(b, min_y);
    max_y = _mm256_max_pd(b, max_y);
    nonfinite = _mm256_or_pd(nonfinite, _mm256_cmp_pd(_mm256_andnot_pd(sign, a), big, _CMP_NLE_UQ));
    nonfinite = _mm256_or_pd(nonfinite, _mm256_cmp_pd(ab, big, _CMP_NLE_UQ));
    const __m256d ok =
        _mm256_or_pd(_mm256_cmp_pd(ad, _mm256_fmadd_pd(vrtol, ab, vatol), _CMP_LE_OQ),
                     _mm256_cmp_pd(a, b, _CMP_EQ_OQ));
    viol = _mm256_add_epi64(
        viol, _mm256_srli_epi64(_mm256_castpd_si256(
                                    _mm256_xor_pd(ok, _mm256_castsi256_pd(_mm256_set1_epi64x(-1)))),
                                63));
    max_viol = _mm256_max_pd(_mm256_andnot_pd(ok, ad), max_viol);
  }
  Lane t;
  for (; i < n; ++i) t.add(x[i], y[i], atol, rtol);
  alignas(32) uint64_t vc[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(vc), viol);
  Acc& acc = *out;
  acc.n = n;
  acc.sxy = hsum(sxy) + t.sxy;
  acc.sxx = hsum(sxx) + t.sxx;
  acc.syy = hsum(syy) + t.syy;
  acc.sdd = hsum(sdd) + t.sdd;
  acc.sabs = hsum(sabs) + t.sabs;
  acc.srel = hsum(srel) + t.srel;
  acc.max_abs = std::max(hmax(max_abs), t.max_abs);
  acc.max_rel = std::max(hmax(max_rel), t.max_rel);
  acc.min_x = std::min(hmin(min_x), t.min_x);
  acc.max_x = std::max(hmax(max_x), t.max_x);
  acc.min_y = std::min(hmin(min_y), t.min_y);
  acc.max_y = std::max(hmax(max_y), t.max_y);
  acc.max_viol = std::max(hmax(max_viol), t.max_viol);
  acc.viol = vc[0] + vc[1] + vc[2] + vc[3] + t.viol;
  const bool any_nonfinite = _mm256_movemask_pd(nonfinite) != 0 || t.nonfinite != 0;
  // StandardDeviation: the chunk's mean, then its sum of squared deviations (two passes over
  // data in cache), merged across chunks by Chan et al.'s formula.
  acc.mean_x = (hsum(sx) + t.sx) / static_cast<double>(n);
  acc.mean_y = (hsum(sy) + t.sy) / static_cast<double>(n);
  __m256d m2x = _mm256_setzero_pd(), m2y = m2x;
  const __m256d mx = _mm256_set1_pd(acc.mean_x), my = _mm256_set1_pd(acc.mean_y);
  size_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const __m256d dx = _mm256_sub_pd(load4(x + j), mx);
    const __m256d dy = _mm256_sub_pd(load4(y + j), my);
    m2x = _mm256_fmadd_pd(dx, dx, m2x);
    m2y = _mm256_fmadd_pd(dy, dy, m2y);
  }
  double m2x_t = 0, m2y_t = 0;
  for (; j < n; ++j) {
    m2x_t += (x[j] - acc.mean_x) * (x[j] - acc.mean_x);
    m2y_t += (y[j] - acc.mean_y) * (y[j] - acc.mean_y);
  }
  acc.m2_x = hsum(m2x) + m2x_t, acc.m2_y = hsum(m2y) + m2y_t;
  // Whether element (a, b) passes the verdict; the hot loop's test, plus equal NaNs on request.
  auto passes = [&](double a, double b) {
    return std::fabs(a - b) <= atol + rtol * std::fabs(b) || a == b ||
           (tol.equal_nan && a != a && b != b);
  };
  if (any_nonfinite) {  // rare: count NaN/Inf per side, and NaN differences and ratios
    uint64_t both_nan = 0, nan_viol = 0;
    for (size_t i = 0; i < n; ++i) {
      const double a = x[i], b = y[i], ad = std::fabs(a - b), ab = std::fabs(b);  // NOLINT
      both_nan += a != a && b != b;
      nan_viol += ad != ad && !passes(a, b);
      acc.nan_x += a != a;
      acc.pinf_x += a == kInf;
      acc.ninf_x += a == -kInf;
      acc.nan_y += b != b;
      acc.pinf_y += b == kInf;
      acc.ninf_y += b == -kInf;
      acc.nan_abs += ad != ad;
      const double r = ab > kEps ? std::fabs(a / b - 1.0) : 0.0;
      acc.nan_rel += r != r;
    }
    // the loops above counted NaN pairs as violations; with equal_nan, NaN == NaN passes
    if (tol.equal_nan) acc.viol -= both_nan;
    acc.nan_viol = nan_viol > 0;
  }
  if (acc.viol) {  // find the first violating element
    for (size_t i = 0; i < n; ++i) {
      if (passes(x[i], y[i])) continue;
      acc.first_viol = static_cast<int64_t>(offset + i);
      break;
    }
  }
}

// Runs `body(chunk_begin, n, x, y, chunk_index_in_window)` over every chunk, window by window,
// then `merge(window_chunk_count)` once per window in chunk order, on `threads` threads (0: all).
template <typename Body, typename Merge>
void forEachWindow(const TensorView& my, const TensorView& golden, uint64_t window, int threads,
                   Body body, Merge merge) {
  const int team = threads > 0 ? threads : omp_get_max_threads();
  const uint64_t count = my.count;
  // float32 on both sides, native order, aligned: read in place, no conversion buffer.
  auto aligned = [](const TensorView& v) { return reinterpret_cast<uintptr_t>(v.data) % 4 == 0; };
  const bool direct = my.dtype == ir::DType::F32 && golden.dtype == ir::DType::F32 &&
                      !my.big_endian && !golden.big_endian && aligned(my) && aligned(golden);
  const float* xf = reinterpret_cast<const float*>(my.data);
  const float* yf = reinterpret_cast<const float*>(golden.data);
  uint64_t released = 0;  // elements before this are released (or being released)
  for (uint64_t wb = 0; wb < count; wb += window) {
    const uint64_t we = std::min(count, wb + window);
    const int64_t chunks = static_cast<int64_t>((we - wb + kChunk - 1) / kChunk);
    const int64_t groups = (chunks + kGroup - 1) / kGroup;
    // Pages are released up to the first group not yet finished (a low-water mark), so no
    // thread ever reads a region after it was dropped (it would be mapped again, for good).
    std::vector<char> done(static_cast<size_t>(groups), 0);
    std::atomic<int64_t> mark{0};
    std::mutex release_mutex;
    // One parallel region per window: few barriers, where a descheduled thread on a busy
    // machine stalls the others.
#pragma omp parallel if (chunks > 1) num_threads(team)
    {
      std::vector<double> xb(direct ? 0 : kChunk), yb(direct ? 0 : kChunk);
#pragma omp for schedule(dynamic, kGroup)
      for (int64_t c = 0; c < chunks; ++c) {
        const uint64_t b = wb + static_cast<uint64_t>(c) * kChunk;
        const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, we - b));
        // A thread may run at most kAhead groups ahead of the mark: when another thread is
        // descheduled (a busy machine), mapped pages would otherwise pile up behind it.
        while (c / kGroup - mark.load(std::memory_order_acquire) > kAhead)
          std::this_thread::yield();
        if (direct) {
          body(b, n, xf + b, yf + b, c);
        } else {
          loadChunk(my, b, n, xb.data());
          loadChunk(golden, b, n, yb.data());
          body(b, n, static_cast<const double*>(xb.data()), static_cast<const double*>(yb.data()),
               c);
        }
        if (c % kGroup == kGroup - 1 || c == chunks - 1) {
          std::lock_guard<std::mutex> lock(release_mutex);
          done[static_cast<size_t>(c / kGroup)] = 1;
          int64_t m = mark.load(std::memory_order_relaxed);
          while (m < groups && done[static_cast<size_t>(m)]) ++m;
          mark.store(m, std::memory_order_release);
          const uint64_t upto = std::min(we, wb + static_cast<uint64_t>(m * kGroup) * kChunk);
          releasePages(my, released, upto, false);
          releasePages(golden, released, upto, false);
          released = std::max(released, upto);
        }
      }
    }
    merge(chunks);
  }
  releasePages(my, 0, count, true);
  releasePages(golden, 0, count, true);
}

std::string format3(double v) {
  if (std::fabs(v) < 0.001) return "0.000";
  if (std::isnan(v)) return "nan";
  return fmt::format("{:.3f}", v);
}

void addReason(CompareResult& r, const std::string& reason) {
  if (r.fail_reason.find(reason) != std::string::npos) return;
  if (!r.fail_reason.empty()) r.fail_reason += "; ";
  r.fail_reason += reason;
}

}  // namespace

const char* metricName(Metric m) { return kNames[static_cast<int>(m)]; }

Result<Metric> parseMetric(const std::string& text) {
  for (int i = 0; i < kMetricCount; ++i) {
    if (text == kNames[i] || text == snakeCase(kNames[i]) || text == std::to_string(i))
      return static_cast<Metric>(i);
  }
  std::string names;
  for (int i = 0; i < kMetricCount; ++i)
    names += fmt::format("{}{} ({})", i ? ", " : "", snakeCase(kNames[i]), i);
  return Status::error(ErrorCode::InvalidParam,
                       "Value {} for parameter --compare_mode/--algorithm is invalid. Reason: "
                       "not a metric; use all, or one or more of: {}",
                       text, names);
}

Result<std::vector<Metric>> parseMetricList(const std::string& text) {
  std::vector<Metric> out;
  if (text.empty() || text == "all") {
    for (int i = 0; i < kMetricCount; ++i) out.push_back(static_cast<Metric>(i));
    return out;
  }
  size_t p = 0;
  while (p <= text.size()) {
    size_t e = text.find(',', p);
    if (e == std::string::npos) e = text.size();
    std::string item = text.substr(p, e - p);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) {
      ASC_TRY(Metric m, parseMetric(item));
      if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    }
    p = e + 1;
  }
  if (out.empty())
    return Status::error(ErrorCode::EmptyParam, "Value for --compare_mode is empty.");
  std::sort(out.begin(), out.end());  // the CSV keeps the built-in order
  return out;
}

bool isComparable(ir::DType t) { return t != ir::DType::Undefined && ir::dtypeSize(t) > 0; }

ir::DType lessPrecise(ir::DType a, ir::DType b) {
  auto rank = [](ir::DType t) {
    if (ir::isFloat8(t)) return -1;
    switch (t) {
      case ir::DType::BF16:
        return 0;
      case ir::DType::F16:
        return 1;
      case ir::DType::F32:
        return 2;
      case ir::DType::F64:
        return 3;
      default:
        return 4;  // integers and bool compare exactly unless a float side is coarser
    }
  };
  return rank(a) <= rank(b) ? a : b;
}

Tolerance defaultTolerance(ir::DType t) {
  switch (t) {
    case ir::DType::F16:
      return {1e-3, 1e-3};
    case ir::DType::BF16:
      return {8e-3, 8e-3};
    case ir::DType::F32:
      return {1e-5, 1e-5};
    case ir::DType::F64:
      return {1e-8, 1e-7};
    case ir::DType::F8E4M3FN:  // half a step of a 3-bit mantissa
    case ir::DType::F8E4M3FNUZ:
      return {0.0625, 0.0625};
    case ir::DType::F8E5M2:
    case ir::DType::F8E5M2FNUZ:
      return {0.125, 0.125};
    default:
      return {0, 0};
  }
}

std::string formatValue(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{:.6f}", v);
}

Result<CompareResult> compareTensors(const TensorView& my, const TensorView& golden,
                                     const CompareOptions& options) {
  for (const TensorView* v : {&my, &golden}) {
    if (!isComparable(v->dtype))
      return Status::error(ErrorCode::InvalidParam,
                           "{} has data type {}, which cannot be compared; convert it to a "
                           "numeric type (int, bool, float16, bfloat16, float32, float64)",
                           v == &my ? options.my_name : options.golden_name,
                           ir::dtypeName(v->dtype));
  }
  if (my.count != golden.count)
    return Status::error(
        ErrorCode::InvalidParam,
        "the tensors have different lengths: {} has {} elements, {} has {}; compare outputs of "
        "the same op and shape (for raw .bin files check --dtype)",
        options.my_name, my.count, options.golden_name, golden.count);

  std::vector<Metric> metrics = options.metrics;
  if (metrics.empty())
    for (int i = 0; i < kMetricCount; ++i) metrics.push_back(static_cast<Metric>(i));

  CompareResult r;
  r.count = my.count;
  r.tolerance = options.tolerance;
  r.value.fill(kNaN);

  // Whole chunks per window, so windows and chunk boundaries line up.
  const uint64_t window =
      options.window_elements
          ? std::max<uint64_t>(kChunk, options.window_elements / kChunk * kChunk)
          : kWindow;
  Acc total;
  std::vector<Acc> accs(window / kChunk);
  forEachWindow(
      my, golden, window, options.threads,
      [&](uint64_t b, size_t n, const auto* x, const auto* y, int64_t c) {
        accs[static_cast<size_t>(c)] = Acc();
        reduceChunk(x, y, n, b, options.tolerance, &accs[static_cast<size_t>(c)]);
      },
      [&](int64_t chunks) {
        for (int64_t c = 0; c < chunks; ++c) total.merge(accs[static_cast<size_t>(c)]);
      });

  r.my = {total.nan_x, total.pinf_x, total.ninf_x};
  r.golden = {total.nan_y, total.pinf_y, total.ninf_y};
  if (total.n) r.golden_max_abs = std::max(std::fabs(total.min_y), std::fabs(total.max_y));
  r.violations = total.viol;
  r.first_violation = total.first_viol;
  r.max_violation_diff = total.nan_viol ? kNaN : total.max_viol;
  // Both sides integers or bool: the verdict and the difference metrics from exact arithmetic.
  const bool exact = isExact(my.dtype) && isExact(golden.dtype);
  ExactSums ex;
  if (exact && r.count) {
    ex = exactPass(my, golden, options.tolerance);
    r.violations = ex.viol;
    r.first_violation = ex.first_viol;
    r.max_violation_diff = static_cast<double>(ex.max_viol);
  }

  const double n = static_cast<double>(total.n);
  const bool finite =
      total.nan_x + total.pinf_x + total.ninf_x + total.nan_y + total.pinf_y + total.ninf_y == 0;
  const bool is_bool = my.dtype == ir::DType::Bool || golden.dtype == ir::DType::Bool;
  if (r.count == 0) {
    for (Metric m : metrics) r.text[static_cast<int>(m)] = "NaN";
    addReason(r, "The tensor is empty.");
    return r;
  }
  if (!finite) addReason(r, "The data contains NaN or Inf.");

  auto set = [&](Metric m, double v) {
    r.value[static_cast<int>(m)] = v;
    r.text[static_cast<int>(m)] = formatValue(v);
  };
  for (Metric m : metrics) {
    if (is_bool && m != Metric::CosineSimilarity && m != Metric::RelativeEuclideanDistance) {
      r.text[static_cast<int>(m)] = "NaN";
      continue;
    }
    switch (m) {
      case Metric::CosineSimilarity: {
        const double nx = std::sqrt(total.sxx), ny = std::sqrt(total.syy);
        if (r.count == 1) {
          set(m, 1.0);
          addReason(r, "This tensor is scalar.");
        } else if (nx <= kEps && ny < kEps) {
          r.value[0] = 1.0;
          r.text[0] = "1.0";
        } else if (nx <= kEps || ny <= kEps) {
          set(m, kNaN);
          addReason(r,
                    fmt::format("Cannot compare by Cosine Similarity. All the data is zero in {}.",
                                nx <= kEps ? options.my_name : options.golden_name));
        } else {
          double c = total.sxy / (nx * ny);
          set(m, c > 1.0 ? 1.0 : c);
        }
        break;
      }
      case Metric::MaxAbsoluteError:
        set(m, exact ? static_cast<double>(ex.max_abs) : total.nan_abs ? kNaN : total.max_abs);
        break;
      case Metric::AccumulatedRelativeError:
        set(m, exact ? static_cast<double>(ex.sum_rel) : total.srel);
        break;
      case Metric::RelativeEuclideanDistance: {
        const double ny = std::sqrt(total.syy);
        set(m, ny <= kEps ? 0.0 : std::sqrt(total.sdd / total.syy));
        break;
      }
      case Metric::KullbackLeiblerDivergence: {
        if (!finite) {
          set(m, kNaN);
          break;
        }
        const double rx = total.max_x - total.min_x, ry = total.max_y - total.min_y;
        detail::KldSums sums;
        std::vector<detail::KldSums> parts(window / kChunk);
        forEachWindow(
            my, golden, window, options.threads,
            [&](uint64_t, size_t cn, const auto* x, const auto* y, int64_t c) {
              parts[static_cast<size_t>(c)] = detail::KldSums();
              detail::kldChunk(x, y, cn, total.min_x, rx, total.min_y, ry,
                               &parts[static_cast<size_t>(c)]);
            },
            [&](int64_t chunks) {
              for (int64_t c = 0; c < chunks; ++c) {
                sums.sum_px += parts[static_cast<size_t>(c)].sum_px;
                sums.sum_py += parts[static_cast<size_t>(c)].sum_py;
                sums.t += parts[static_cast<size_t>(c)].t;
              }
            });
        double kld = sums.t / sums.sum_px + std::log(sums.sum_py / sums.sum_px);
        if (std::fabs(kld) < kEps) kld = 0;
        if (std::isinf(kld))
          addReason(r, fmt::format("The data contains 0 in {}.", options.golden_name));
        set(m, kld);
        break;
      }
      case Metric::StandardDeviation: {
        const double sdx = std::sqrt(total.m2_x / n), sdy = std::sqrt(total.m2_y / n);
        r.text[static_cast<int>(m)] =
            fmt::format("({};{}),({};{})", format3(total.mean_x), format3(sdx),
                        format3(total.mean_y), format3(sdy));
        break;
      }
      case Metric::MeanAbsoluteError:
        set(m, exact ? static_cast<double>(static_cast<long double>(ex.sum_abs) / total.n)
                     : total.sabs / n);
        break;
      case Metric::RootMeanSquareError:
        set(m,
            exact ? static_cast<double>(std::sqrt(ex.sum_sq / total.n)) : std::sqrt(total.sdd / n));
        break;
      case Metric::MaxRelativeError:
        set(m, exact ? static_cast<double>(ex.max_rel) : total.nan_rel ? kNaN : total.max_rel);
        break;
      case Metric::MeanRelativeError:
        set(m, exact ? static_cast<double>(ex.sum_rel / total.n) : total.srel / n);
        break;
    }
  }
  return r;
}

}  // namespace asc::compare
