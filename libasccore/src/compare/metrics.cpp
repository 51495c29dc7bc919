// metrics.cpp: the streaming comparison. Data is walked in windows of kWindow elements; each
// window is cut into chunks of kChunk elements that threads convert to double and reduce into
// one Acc each; the window's Accs are then merged in chunk order (so sums do not depend on the
// thread count) and the window's file pages are released. KullbackLeiblerDivergence needs each
// side's min and max first, so it takes a second pass over the data.
#include "asc/compare/metrics.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

#include "asc/support/fp16.h"
#include "compare/kld_kernel.h"
#include "cpu/convert.h"

namespace asc::compare {
namespace {

constexpr size_t kChunk = 4096;
constexpr uint64_t kWindow = uint64_t(1) << 22;  // elements per window (16 MB of float32 a side)
constexpr double kEps = DBL_EPSILON;            // np.finfo(float).eps
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* const kNames[kMetricCount] = {
    "CosineSimilarity",          "MaxAbsoluteError",  "AccumulatedRelativeError",
    "RelativeEuclideanDistance", "KullbackLeiblerDivergence", "StandardDeviation",
    "MeanAbsoluteError",         "RootMeanSquareError", "MaxRelativeError",
    "MeanRelativeError"};

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

// ---- chunk loading -------------------------------------------------------------------------

template <typename T>
T loadElem(const uint8_t* p, bool swap) {
  T v;
  if (!swap) {
    std::memcpy(&v, p, sizeof(T));
  } else {
    uint8_t b[sizeof(T)];
    for (size_t i = 0; i < sizeof(T); ++i) b[i] = p[sizeof(T) - 1 - i];
    std::memcpy(&v, b, sizeof(T));
  }
  return v;
}

template <typename T>
void convertTo(const uint8_t* src, size_t n, bool swap, double* out) {
  if (!swap) {
    T tmp[kChunk];  // copy first: the source may be unaligned (dump files, .npy bodies)
    std::memcpy(tmp, src, n * sizeof(T));
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<double>(tmp[i]);
  } else {
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<double>(loadElem<T>(src + i * sizeof(T), true));
  }
}

// Converts elements [begin, begin + n) of `v` (n <= kChunk) to double.
void loadChunk(const TensorView& v, uint64_t begin, size_t n, double* out) {
  const size_t es = ir::dtypeSize(v.dtype);
  const uint8_t* src = v.data + begin * es;
  const bool swap = v.big_endian && es > 1;
  using ir::DType;
  switch (v.dtype) {
    case DType::F32: return convertTo<float>(src, n, swap, out);
    case DType::F64: return convertTo<double>(src, n, swap, out);
    case DType::I8: return convertTo<int8_t>(src, n, false, out);
    case DType::U8: return convertTo<uint8_t>(src, n, false, out);
    case DType::I16: return convertTo<int16_t>(src, n, swap, out);
    case DType::U16: return convertTo<uint16_t>(src, n, swap, out);
    case DType::I32: return convertTo<int32_t>(src, n, swap, out);
    case DType::U32: return convertTo<uint32_t>(src, n, swap, out);
    case DType::I64: return convertTo<int64_t>(src, n, swap, out);
    case DType::U64: return convertTo<uint64_t>(src, n, swap, out);
    case DType::Bool:
      for (size_t i = 0; i < n; ++i) out[i] = src[i] != 0 ? 1.0 : 0.0;
      return;
    case DType::F16:
    case DType::BF16: {
      uint16_t h[kChunk];
      float f[kChunk];
      for (size_t i = 0; i < n; ++i) h[i] = loadElem<uint16_t>(src + 2 * i, swap);
      if (v.dtype == DType::F16) cpu::halfToFloat(h, f, n);
      else cpu::bf16ToFloat(h, f, n);
      for (size_t i = 0; i < n; ++i) out[i] = f[i];
      return;
    }
    default: assert(false && "dtype checked by compareTensors"); return;
  }
}

// Drops the pages of `v`'s elements [begin, end) from this process: they were read and are
// only needed again (re-read from the page cache) by the KLD pass.
void releasePages(const TensorView& v, uint64_t begin, uint64_t end) {
  if (!v.releasable) return;
  const size_t es = ir::dtypeSize(v.dtype);
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t b = reinterpret_cast<uintptr_t>(v.data + begin * es) & ~(page - 1);
  uintptr_t e = reinterpret_cast<uintptr_t>(v.data + end * es) & ~(page - 1);
  if (e > b) madvise(reinterpret_cast<void*>(b), e - b, MADV_DONTNEED);
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

void reduceChunk(const double* x, const double* y, size_t n, uint64_t offset, Tolerance tol,
                 Acc* out) {
  double sx = 0, sy = 0, sxy = 0, sxx = 0, syy = 0, sdd = 0, sabs = 0, srel = 0;
  double max_abs = 0, max_rel = 0, min_x = kInf, max_x = -kInf, min_y = kInf, max_y = -kInf;
  uint64_t nan_x = 0, pinf_x = 0, ninf_x = 0, nan_y = 0, pinf_y = 0, ninf_y = 0;
  uint64_t nan_abs = 0, nan_rel = 0, viol = 0;
  const double atol = tol.atol, rtol = tol.rtol;
#pragma omp simd reduction(+ : sx, sy, sxy, sxx, syy, sdd, sabs, srel, nan_x, pinf_x, ninf_x, \
                               nan_y, pinf_y, ninf_y, nan_abs, nan_rel, viol)               \
    reduction(max : max_abs, max_rel, max_x, max_y) reduction(min : min_x, min_y)
  for (size_t i = 0; i < n; ++i) {
    const double a = x[i], b = y[i];
    const double d = a - b, ad = std::fabs(d), ab = std::fabs(b);
    sx += a;
    sy += b;
    sxy += a * b;
    sxx += a * a;
    syy += b * b;
    sdd += d * d;
    sabs += ad;
    max_abs = ad > max_abs ? ad : max_abs;
    const double r = ab > kEps ? std::fabs(a / b - 1.0) : 0.0;
    srel += r;
    max_rel = r > max_rel ? r : max_rel;
    min_x = a < min_x ? a : min_x;
    max_x = a > max_x ? a : max_x;
    min_y = b < min_y ? b : min_y;
    max_y = b > max_y ? b : max_y;
    nan_x += a != a;
    pinf_x += a == kInf;
    ninf_x += a == -kInf;
    nan_y += b != b;
    pinf_y += b == kInf;
    ninf_y += b == -kInf;
    nan_abs += ad != ad;
    nan_rel += r != r;
    viol += !(ad <= atol + rtol * ab || a == b);
  }
  Acc& acc = *out;
  acc.n = n;
  acc.mean_x = sx / static_cast<double>(n);
  acc.mean_y = sy / static_cast<double>(n);
  double m2x = 0, m2y = 0;
  const double mx = acc.mean_x, my = acc.mean_y;
#pragma omp simd reduction(+ : m2x, m2y)
  for (size_t i = 0; i < n; ++i) {
    m2x += (x[i] - mx) * (x[i] - mx);
    m2y += (y[i] - my) * (y[i] - my);
  }
  acc.m2_x = m2x, acc.m2_y = m2y;
  acc.sxy = sxy, acc.sxx = sxx, acc.syy = syy, acc.sdd = sdd, acc.sabs = sabs, acc.srel = srel;
  acc.max_abs = max_abs, acc.max_rel = max_rel;
  acc.min_x = min_x, acc.max_x = max_x, acc.min_y = min_y, acc.max_y = max_y;
  acc.nan_x = nan_x, acc.pinf_x = pinf_x, acc.ninf_x = ninf_x;
  acc.nan_y = nan_y, acc.pinf_y = pinf_y, acc.ninf_y = ninf_y;
  acc.nan_abs = nan_abs, acc.nan_rel = nan_rel, acc.viol = viol;
  if (viol) {  // rare: find where
    for (size_t i = 0; i < n; ++i) {
      const double a = x[i], b = y[i], ad = std::fabs(a - b);
      if (ad <= atol + rtol * std::fabs(b) || a == b) continue;
      if (acc.first_viol < 0) acc.first_viol = static_cast<int64_t>(offset + i);
      if (ad != ad) acc.nan_viol = true;
      else acc.max_viol = std::max(acc.max_viol, ad);
    }
  }
}

// Runs `body(chunk_begin, n, x, y, chunk_index_in_window)` over every chunk, window by window,
// then `merge(window_chunk_count)` once per window in chunk order.
template <typename Body, typename Merge>
void forEachWindow(const TensorView& my, const TensorView& golden, Body body, Merge merge) {
  const uint64_t count = my.count;
  for (uint64_t wb = 0; wb < count; wb += kWindow) {
    const uint64_t we = std::min(count, wb + kWindow);
    const int64_t chunks = static_cast<int64_t>((we - wb + kChunk - 1) / kChunk);
#pragma omp parallel if (chunks > 4)
    {
      std::vector<double> xb(kChunk), yb(kChunk);
#pragma omp for schedule(static)
      for (int64_t c = 0; c < chunks; ++c) {
        const uint64_t b = wb + static_cast<uint64_t>(c) * kChunk;
        const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, we - b));
        loadChunk(my, b, n, xb.data());
        loadChunk(golden, b, n, yb.data());
        body(b, n, xb.data(), yb.data(), c);
      }
    }
    merge(chunks);
    releasePages(my, wb, we);
    releasePages(golden, wb, we);
  }
}

void adviseSequential(const TensorView& v) {
  if (!v.releasable || v.count == 0) return;
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t b = reinterpret_cast<uintptr_t>(v.data) & ~(page - 1);
  uintptr_t e = reinterpret_cast<uintptr_t>(v.data + v.count * ir::dtypeSize(v.dtype));
  madvise(reinterpret_cast<void*>(b), e - b, MADV_SEQUENTIAL);
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
  for (int i = 0; i < kMetricCount; ++i) names += fmt::format("{}{} ({})", i ? ", " : "", snakeCase(kNames[i]), i);
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

bool isComparable(ir::DType t) {
  return t != ir::DType::Undefined && ir::dtypeSize(t) > 0;
}

ir::DType lessPrecise(ir::DType a, ir::DType b) {
  auto rank = [](ir::DType t) {
    switch (t) {
      case ir::DType::BF16: return 0;
      case ir::DType::F16: return 1;
      case ir::DType::F32: return 2;
      case ir::DType::F64: return 3;
      default: return 4;  // integers and bool compare exactly unless a float side is coarser
    }
  };
  return rank(a) <= rank(b) ? a : b;
}

Tolerance defaultTolerance(ir::DType t) {
  switch (t) {
    case ir::DType::F16: return {1e-3, 1e-3};
    case ir::DType::BF16: return {8e-3, 8e-3};
    case ir::DType::F32: return {1e-5, 1e-5};
    case ir::DType::F64: return {1e-8, 1e-7};
    default: return {0, 0};
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
  adviseSequential(my);
  adviseSequential(golden);

  Acc total;
  std::vector<Acc> accs(kWindow / kChunk);
  forEachWindow(
      my, golden,
      [&](uint64_t b, size_t n, const double* x, const double* y, int64_t c) {
        accs[static_cast<size_t>(c)] = Acc();
        reduceChunk(x, y, n, b, options.tolerance, &accs[static_cast<size_t>(c)]);
      },
      [&](int64_t chunks) {
        for (int64_t c = 0; c < chunks; ++c) total.merge(accs[static_cast<size_t>(c)]);
      });

  r.my = {total.nan_x, total.pinf_x, total.ninf_x};
  r.golden = {total.nan_y, total.pinf_y, total.ninf_y};
  r.violations = total.viol;
  r.first_violation = total.first_viol;
  r.max_violation_diff = total.nan_viol ? kNaN : total.max_viol;

  const double n = static_cast<double>(total.n);
  const bool finite = total.nan_x + total.pinf_x + total.ninf_x + total.nan_y + total.pinf_y +
                          total.ninf_y == 0;
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
          addReason(r, fmt::format("Cannot compare by Cosine Similarity. All the data is zero in {}.",
                                   nx <= kEps ? options.my_name : options.golden_name));
        } else {
          double c = total.sxy / (nx * ny);
          set(m, c > 1.0 ? 1.0 : c);
        }
        break;
      }
      case Metric::MaxAbsoluteError: set(m, total.nan_abs ? kNaN : total.max_abs); break;
      case Metric::AccumulatedRelativeError: set(m, total.srel); break;
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
        std::vector<detail::KldSums> parts(kWindow / kChunk);
        forEachWindow(
            my, golden,
            [&](uint64_t, size_t cn, const double* x, const double* y, int64_t c) {
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
      case Metric::MeanAbsoluteError: set(m, total.sabs / n); break;
      case Metric::RootMeanSquareError: set(m, std::sqrt(total.sdd / n)); break;
      case Metric::MaxRelativeError: set(m, total.nan_rel ? kNaN : total.max_rel); break;
      case Metric::MeanRelativeError: set(m, total.srel / n); break;
    }
  }
  return r;
}

}  // namespace asc::compare
