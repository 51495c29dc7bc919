// datadep_core.cpp: NonZero, Compress, Unique and NonMaxSuppression on constant tensors (see
// datadep_core.h). Every loop is bounded by the sizes of the tensors it reads; values are read
// through Tensor::intAt/floatAt, so every element type works; data moves as bytes.
#include "datadep_core.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

namespace asc::ops::datadep {
namespace {

template <typename... Args>
Status bad(const ir::Node& n, fmt::format_string<Args...> f, Args&&... args) {
  return Status::error(ErrorCode::InvalidModel, "node '{}' ({}): {}", n.name, n.op_type,
                       fmt::format(f, std::forward<Args>(args)...));
}

// The stored bytes cover the shape (a constant read from a file was checked on import; this
// guards tensors built elsewhere).
Status checkData(const ir::Node& n, const ir::Tensor& t, const char* what) {
  if (t.numel() > 0 && (!t.data || t.data->size() < t.byteSize()))
    return bad(n, "{} holds {} bytes, its shape [{}] needs {}", what, t.data ? t.data->size() : 0,
               ir::shapeToString(t.shape), t.byteSize());
  return Status::ok();
}

bool nonZeroAt(const ir::Tensor& t, int64_t i) {
  return ir::isFloat(t.dtype) ? t.floatAt(i) != 0.0 : t.intAt(i) != 0;
}

// Splits a shape at `axis` into (outer, dim, inner) element counts.
struct Split3 {
  int64_t outer = 1, dim = 1, inner = 1;
};
Split3 splitAt(const ir::Shape& s, int64_t axis) {
  Split3 r;
  for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d)
    (d < axis ? r.outer : d == axis ? r.dim : r.inner) *= s[d];
  return r;
}

}  // namespace

Result<std::vector<ir::Tensor>> nonZero(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Tensor& x = in.at(0);
  ASC_RETURN_IF_ERROR(checkData(n, x, "input"));
  // A scalar has one coordinate row (index 0), as ONNX Runtime gives it.
  const int64_t rank = std::max<int64_t>(1, static_cast<int64_t>(x.shape.size()));
  std::vector<int64_t> hits;
  for (int64_t i = 0; i < x.numel(); ++i)
    if (nonZeroAt(x, i)) hits.push_back(i);
  const int64_t nnz = static_cast<int64_t>(hits.size());
  std::vector<int64_t> coords(static_cast<size_t>(rank * nnz), 0);
  const std::vector<int64_t> strides =
      x.shape.empty() ? std::vector<int64_t>{1} : stridesOf(x.shape);
  for (int64_t k = 0; k < nnz; ++k) {
    int64_t rest = hits[k];
    for (int64_t d = 0; d < rank; ++d) {
      coords[d * nnz + k] = rest / strides[d];
      rest %= strides[d];
    }
  }
  return std::vector<ir::Tensor>{makeInt64Tensor(coords, {rank, nnz})};
}

Result<std::vector<ir::Tensor>> compress(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Tensor& x = in.at(0);
  const ir::Tensor& cond = in.at(1);
  ASC_RETURN_IF_ERROR(checkData(n, x, "input"));
  ASC_RETURN_IF_ERROR(checkData(n, cond, "condition"));
  const bool has_axis = n.attrs.has("axis");
  Split3 s{1, x.numel(), 1};
  int64_t axis = 0;
  if (has_axis) {
    const int64_t raw = n.attrs.getInt("axis", 0);
    auto a = normalizeAxis(raw, static_cast<int64_t>(x.shape.size()));
    if (!a) return bad(n, "axis {} is out of range for an input of rank {}", raw, x.shape.size());
    axis = *a;
    s = splitAt(x.shape, axis);
  }
  // Entries of the condition past the axis' length select nothing (numpy and ONNX Runtime
  // truncate the same way).
  std::vector<int64_t> keep;
  const int64_t len = std::min(cond.numel(), s.dim);
  for (int64_t j = 0; j < len; ++j)
    if (nonZeroAt(cond, j)) keep.push_back(j);
  const int64_t k = static_cast<int64_t>(keep.size());
  ir::Shape out_shape = has_axis ? x.shape : ir::Shape{k};
  if (has_axis) out_shape[axis] = k;
  TensorBuilder b(x.dtype, out_shape);
  const size_t es = ir::dtypeSize(x.dtype);
  const size_t run = static_cast<size_t>(s.inner) * es;
  const uint8_t* src = bytesOf(x);
  for (int64_t o = 0; o < s.outer && run > 0; ++o)
    for (int64_t j = 0; j < k; ++j)
      std::memcpy(b.bytes.data() + static_cast<size_t>(o * k + j) * run,
                  src + static_cast<size_t>(o * s.dim + keep[j]) * run, run);
  return std::vector<ir::Tensor>{b.finish()};
}

namespace {

// Unique over `dim` slices of `width` keys each (slice j: keys[j * width ...]). Keys are int64
// (integer types; uint64 with its top bit flipped so that the signed order is the unsigned one)
// or double (float types; NaNs equal each other and above every number, a strict weak order).
struct UniqueResult {
  std::vector<int64_t> reps;     // per unique slice: its first occurrence
  std::vector<int64_t> inverse;  // per slice: its unique slice
  std::vector<int64_t> counts;
};

template <typename K>
bool keyLess(K a, K b) {
  if constexpr (std::is_floating_point_v<K>)
    return a < b || (!std::isnan(a) && std::isnan(b));
  else
    return a < b;
}

template <typename K>
UniqueResult uniqueSlices(const std::vector<K>& keys, int64_t dim, int64_t width, bool sorted) {
  auto less = [&](int64_t a, int64_t b) {
    for (int64_t i = 0; i < width; ++i) {
      const K x = keys[a * width + i], y = keys[b * width + i];
      if (keyLess(x, y)) return true;
      if (keyLess(y, x)) return false;
    }
    return false;
  };
  std::vector<int64_t> order(static_cast<size_t>(dim));
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), less);
  // Runs of equal slices; stable sorting puts each run's first occurrence first.
  std::vector<int64_t> group_of(static_cast<size_t>(dim), 0);
  std::vector<int64_t> first, count;
  for (int64_t p = 0; p < dim; ++p) {
    if (p == 0 || less(order[p - 1], order[p])) {
      first.push_back(order[p]);
      count.push_back(0);
    }
    group_of[order[p]] = static_cast<int64_t>(first.size()) - 1;
    ++count.back();
  }
  const int64_t u = static_cast<int64_t>(first.size());
  std::vector<int64_t> pos(static_cast<size_t>(u));  // group -> output position
  std::iota(pos.begin(), pos.end(), int64_t{0});
  if (!sorted) {
    std::vector<int64_t> by_first(static_cast<size_t>(u));
    std::iota(by_first.begin(), by_first.end(), int64_t{0});
    std::sort(by_first.begin(), by_first.end(),
              [&](int64_t a, int64_t b) { return first[a] < first[b]; });
    for (int64_t p = 0; p < u; ++p) pos[by_first[p]] = p;
  }
  UniqueResult r;
  r.reps.resize(static_cast<size_t>(u));
  r.counts.resize(static_cast<size_t>(u));
  for (int64_t g = 0; g < u; ++g) {
    r.reps[pos[g]] = first[g];
    r.counts[pos[g]] = count[g];
  }
  r.inverse.resize(static_cast<size_t>(dim));
  for (int64_t j = 0; j < dim; ++j) r.inverse[j] = pos[group_of[j]];
  return r;
}

// The keys of the `dim` slices along the split's middle axis, slice-major.
template <typename K, typename Read>
std::vector<K> sliceKeys(const Split3& s, Read read) {
  std::vector<K> keys(static_cast<size_t>(s.outer * s.dim * s.inner));
  const int64_t width = s.outer * s.inner;
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t j = 0; j < s.dim; ++j)
      for (int64_t i = 0; i < s.inner; ++i)
        keys[j * width + o * s.inner + i] = read((o * s.dim + j) * s.inner + i);
  return keys;
}

}  // namespace

Result<std::vector<ir::Tensor>> unique(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Tensor& x = in.at(0);
  ASC_RETURN_IF_ERROR(checkData(n, x, "input"));
  const bool has_axis = n.attrs.has("axis");
  const bool sorted = n.attrs.getInt("sorted", 1) != 0;
  Split3 s{1, x.numel(), 1};
  int64_t axis = 0;
  if (has_axis) {
    const int64_t raw = n.attrs.getInt("axis", 0);
    auto a = normalizeAxis(raw, static_cast<int64_t>(x.shape.size()));
    if (!a) return bad(n, "axis {} is out of range for an input of rank {}", raw, x.shape.size());
    axis = *a;
    s = splitAt(x.shape, axis);
  }
  const int64_t width = s.outer * s.inner;
  UniqueResult r;
  if (s.dim > 0 && width == 0) {
    // Empty slices are all equal: one unique slice.
    r.reps = {0};
    r.counts = {s.dim};
    r.inverse.assign(static_cast<size_t>(s.dim), 0);
  } else if (ir::isFloat(x.dtype)) {
    r = uniqueSlices(sliceKeys<double>(s, [&](int64_t i) { return x.floatAt(i); }), s.dim, width,
                     sorted);
  } else {
    const bool u64 = x.dtype == ir::DType::U64;
    r = uniqueSlices(
        sliceKeys<int64_t>(
            s,
            [&](int64_t i) {
              const int64_t v = x.intAt(i);
              return u64 ? static_cast<int64_t>(static_cast<uint64_t>(v) ^ (uint64_t{1} << 63)) : v;
            }),
        s.dim, width, sorted);
  }
  const int64_t u = static_cast<int64_t>(r.reps.size());
  ir::Shape y_shape = has_axis ? x.shape : ir::Shape{u};
  if (has_axis) y_shape[axis] = u;
  TensorBuilder y(x.dtype, y_shape);
  const size_t run = static_cast<size_t>(s.inner) * ir::dtypeSize(x.dtype);
  const uint8_t* src = bytesOf(x);
  for (int64_t o = 0; o < s.outer && run > 0; ++o)
    for (int64_t k = 0; k < u; ++k)
      std::memcpy(y.bytes.data() + static_cast<size_t>(o * u + k) * run,
                  src + static_cast<size_t>(o * s.dim + r.reps[k]) * run, run);
  std::vector<ir::Tensor> outs{y.finish(), makeInt64Tensor(r.reps, {u}),
                               makeInt64Tensor(r.inverse, {s.dim}), makeInt64Tensor(r.counts, {u})};
  outs.resize(std::min(outs.size(), n.outputs.size()));
  return outs;
}

namespace {

// A value read as double, as float: saturated to +-inf (a float64 box past float's range must
// not be converted directly, which is undefined); NaN stays NaN.
float toFloat(double v) {
  constexpr double kMax = std::numeric_limits<float>::max();
  if (v > kMax) return std::numeric_limits<float>::infinity();
  if (v < -kMax) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(v);
}

struct Box {
  float y0, x0, y1, x1;  // min corner, max corner
  float area() const { return (y1 - y0) * (x1 - x0); }
};

Box readBox(const ir::Tensor& boxes, int64_t at, bool center) {
  const float a = toFloat(boxes.floatAt(at)), b = toFloat(boxes.floatAt(at + 1));
  const float c = toFloat(boxes.floatAt(at + 2)), d = toFloat(boxes.floatAt(at + 3));
  if (center)  // [x_center, y_center, width, height]
    return {b - d / 2, a - c / 2, b + d / 2, a + c / 2};
  // [y1, x1, y2, x2]: any pair of diagonal corners.
  return {std::min(a, c), std::min(b, d), std::max(a, c), std::max(b, d)};
}

// Whether box q suppresses box p: their intersection over union exceeds the threshold. Empty
// boxes and empty intersections never suppress (as ONNX Runtime decides).
bool suppresses(const Box& p, const Box& q, float iou_threshold) {
  const float ih = std::min(p.y1, q.y1) - std::max(p.y0, q.y0);
  const float iw = std::min(p.x1, q.x1) - std::max(p.x0, q.x0);
  if (!(ih > 0) || !(iw > 0)) return false;
  const float inter = ih * iw;
  const float ap = p.area(), aq = q.area();
  const float uni = ap + aq - inter;
  if (!(ap > 0) || !(aq > 0) || !(uni > 0)) return false;
  return inter / uni > iou_threshold;
}

}  // namespace

Result<std::vector<ir::Tensor>> nonMaxSuppression(const ir::Node& n,
                                                  const std::vector<ir::Tensor>& in) {
  const ir::Tensor& boxes = in.at(0);
  const ir::Tensor& scores = in.at(1);
  ASC_RETURN_IF_ERROR(checkData(n, boxes, "boxes"));
  ASC_RETURN_IF_ERROR(checkData(n, scores, "scores"));
  if (boxes.shape.size() != 3 || boxes.shape[2] != 4 || scores.shape.size() != 3 ||
      scores.shape[0] != boxes.shape[0] || scores.shape[2] != boxes.shape[1])
    return bad(n, "boxes [{}] and scores [{}] must be [B, N, 4] and [B, C, N]",
               ir::shapeToString(boxes.shape), ir::shapeToString(scores.shape));
  const int64_t nb = boxes.shape[0], nbox = boxes.shape[1], nc = scores.shape[1];
  auto scalar = [&](size_t i) -> const ir::Tensor* {
    return i < in.size() && in[i].dtype != ir::DType::Undefined ? &in[i] : nullptr;
  };
  int64_t max_out = 0;
  float iou = 0.f, score_thr = 0.f;
  const ir::Tensor* st = scalar(4);
  const char* names[] = {"", "", "max_output_boxes_per_class", "iou_threshold", "score_threshold"};
  for (size_t i = 2; i < 5; ++i)
    if (const ir::Tensor* t = scalar(i)) {
      ASC_RETURN_IF_ERROR(checkData(n, *t, names[i]));
      if (t->numel() != 1)
        return bad(n, "{} must hold one value, it holds {}", names[i], t->numel());
    }
  if (const ir::Tensor* t = scalar(2)) max_out = std::max<int64_t>(0, t->intAt(0));
  if (const ir::Tensor* t = scalar(3)) iou = toFloat(t->floatAt(0));
  if (!(iou >= 0.f && iou <= 1.f)) return bad(n, "iou_threshold {} must be in [0, 1]", iou);
  if (st) score_thr = toFloat(st->floatAt(0));
  const bool center = n.attrs.getInt("center_point_box", 0) != 0;

  std::vector<int64_t> rows;  // (batch, class, box) triples
  std::vector<int64_t> cand;
  std::vector<Box> kept;
  for (int64_t b = 0; b < nb; ++b)
    for (int64_t c = 0; c < nc && max_out > 0; ++c) {
      const int64_t base = (b * nc + c) * nbox;
      cand.clear();
      for (int64_t i = 0; i < nbox; ++i)
        if (!st || scores.floatAt(base + i) > score_thr) cand.push_back(i);
      // Highest score first, the lower box index first among equal scores; NaN last.
      std::stable_sort(cand.begin(), cand.end(), [&](int64_t p, int64_t q) {
        const float sp = toFloat(scores.floatAt(base + p));
        const float sq = toFloat(scores.floatAt(base + q));
        return sp > sq || (!std::isnan(sp) && std::isnan(sq));
      });
      kept.clear();
      for (int64_t i : cand) {
        if (static_cast<int64_t>(kept.size()) >= max_out) break;
        const Box box = readBox(boxes, (b * nbox + i) * 4, center);
        bool drop = false;
        for (const Box& k : kept)
          if (suppresses(box, k, iou)) {
            drop = true;
            break;
          }
        if (drop) continue;
        kept.push_back(box);
        rows.insert(rows.end(), {b, c, i});
      }
    }
  const int64_t count = static_cast<int64_t>(rows.size()) / 3;
  return std::vector<ir::Tensor>{makeInt64Tensor(rows, {count, 3})};
}

}  // namespace asc::ops::datadep
