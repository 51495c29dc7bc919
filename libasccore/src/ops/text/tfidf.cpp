// tfidf.cpp: TfIdfVectorizer (ONNX opset 9) on int32/int64 sequences. The pool holds the
// n-grams the model learned, grouped by length (ngram_counts[n-1] is where the n-grams start);
// the j-th n-gram of the pool counts into output column ngram_indexes[j]. For each row, every
// n-gram of length min_gram_length..max_gram_length is taken with 0..max_skip_count skips
// between its items (items k*(skip+1) apart); 1-grams are counted once, whatever the skips.
// mode TF gives the counts, IDF the pool weight where the count is positive, TFIDF count x
// weight (weights default to 1). pool_strings (string tensors) are not supported.
#include <algorithm>
#include <map>

#include "ops/op_util.h"

namespace asc::ops {
namespace {

struct TfIdf {
  int64_t min_n = 0, max_n = 0, max_skip = 0;
  int mode = 0;                                  // 0 TF, 1 IDF, 2 TFIDF
  std::map<std::vector<int64_t>, int64_t> pool;  // n-gram -> pool index j
  std::vector<int64_t> indexes;
  std::vector<float> weights;
  int64_t width = 0;    // output columns: max(ngram_indexes) + 1
  int64_t longest = 0;  // the longest n-gram length the pool has
};

Result<TfIdf> readTfIdf(const ir::Node& n) {
  const ir::Attrs& a = n.attrs;
  TfIdf t;
  t.min_n = a.getInt("min_gram_length", 0);
  t.max_n = a.getInt("max_gram_length", 0);
  t.max_skip = a.getInt("max_skip_count", 0);
  const std::string mode = a.getString("mode", "");
  t.mode = mode == "TF" ? 0 : mode == "IDF" ? 1 : mode == "TFIDF" ? 2 : -1;
  auto bad = [&](const std::string& what) {
    return Status::error(ErrorCode::InvalidModel, "node '{}' (TfIdfVectorizer): {}", n.name, what);
  };
  if (t.mode < 0) return bad("mode '" + mode + "' is not TF, IDF or TFIDF");
  if (t.min_n < 1 || t.max_n < t.min_n || t.max_skip < 0)
    return bad("min_gram_length, max_gram_length or max_skip_count is out of range");
  if (a.has("pool_strings"))
    return Status::error(ErrorCode::NotImplemented,
                         "node '{}' (TfIdfVectorizer): pool_strings (string n-grams) are not "
                         "supported; asc-tools reads pool_int64s",
                         n.name);
  const std::vector<int64_t> pool = a.getInts("pool_int64s");
  const std::vector<int64_t> counts = a.getInts("ngram_counts");
  t.indexes = a.getInts("ngram_indexes");
  t.weights = a.getFloats("weights");
  if (counts.empty() || t.indexes.empty())
    return bad("ngram_counts and ngram_indexes are required");
  // Walk the pool: the n-grams of length k+1 lie in [counts[k], counts[k+1]).
  int64_t j = 0;
  t.longest = static_cast<int64_t>(counts.size());
  for (size_t k = 0; k < counts.size(); ++k) {
    const int64_t len = static_cast<int64_t>(k) + 1;
    const int64_t begin = counts[k];
    const int64_t end = k + 1 < counts.size() ? counts[k + 1] : static_cast<int64_t>(pool.size());
    if (begin < 0 || end < begin || end > static_cast<int64_t>(pool.size()) || (end - begin) % len)
      return bad("ngram_counts does not split pool_int64s into whole n-grams");
    for (int64_t at = begin; at < end; at += len, ++j)
      t.pool.emplace(std::vector<int64_t>(pool.begin() + at, pool.begin() + at + len), j);
  }
  if (static_cast<int64_t>(t.indexes.size()) < j)
    return bad("ngram_indexes is shorter than the pool");
  if (!t.weights.empty() && static_cast<int64_t>(t.weights.size()) < j)
    return bad("weights is shorter than the pool");
  for (int64_t idx : t.indexes) {
    if (idx < 0) return bad("ngram_indexes holds a negative index");
    t.width = std::max(t.width, idx + 1);
  }
  return t;
}

/// One row of `len` tokens into `y` (t.width floats).
void tfidfRow(const TfIdf& t, const int64_t* x, int64_t len, float* y) {
  std::vector<float> counts(t.pool.size(), 0.f);
  std::vector<int64_t> gram;
  // No pool n-gram is longer than t.longest, and no skip reaches past the row: the loops stay
  // bounded whatever the attributes say.
  const int64_t top = std::min(t.max_n, std::min(t.longest, len));
  for (int64_t n = t.min_n; n <= top; ++n)
    for (int64_t skip = 0; skip <= (n == 1 ? 0 : std::min(t.max_skip, len)); ++skip) {
      const int64_t step = skip + 1;
      for (int64_t s = 0; s + (n - 1) * step < len; ++s) {
        gram.clear();
        for (int64_t k = 0; k < n; ++k) gram.push_back(x[s + k * step]);
        auto it = t.pool.find(gram);
        if (it != t.pool.end()) counts[static_cast<size_t>(it->second)] += 1.f;
      }
    }
  std::fill(y, y + t.width, 0.f);
  for (const auto& [g, j] : t.pool) {
    const float c = counts[static_cast<size_t>(j)];
    const float w = t.weights.empty() ? 1.f : t.weights[static_cast<size_t>(j)];
    y[t.indexes[static_cast<size_t>(j)]] = t.mode == 0   ? c
                                           : t.mode == 1 ? (c > 0 ? w : 0.f)
                                                         : c * w;
  }
}

Status inferTfIdf(InferContext& ctx) {
  if (ctx.dtype(0) != ir::DType::I32 && ctx.dtype(0) != ir::DType::I64)
    return ctx.unsupported("input of dtype {}; int32 and int64 are supported",
                           ir::dtypeName(ctx.dtype(0)));
  if (ctx.rank(0) != 1 && ctx.rank(0) != 2)
    return ctx.fail("input must be 1-D [C] or 2-D [N, C], it is [{}]",
                    ir::shapeToString(ctx.shape(0)));
  ASC_TRY(TfIdf t, readTfIdf(ctx.node()));
  ir::Shape out = ctx.shape(0);
  out.back() = t.width;
  ctx.setOutput(0, ir::DType::F32, out);
  return Status::ok();
}

class TfIdfKernel : public Kernel {
 public:
  TfIdfKernel(const KernelInit& k, TfIdf t)
      : t_(std::move(t)), in_(k.inputs[0]), out_(k.outputs[0]) {
    const ir::Shape& s = in_.shape();
    rows_ = s.size() == 2 ? s[0] : 1;
    len_ = s.back();
    row_.resize(static_cast<size_t>(len_));
  }
  void run() override {
    for (int64_t r = 0; r < rows_; ++r) {
      for (int64_t i = 0; i < len_; ++i)
        row_[static_cast<size_t>(i)] = in_.dtype() == ir::DType::I32
                                           ? static_cast<const int32_t*>(in_.data)[r * len_ + i]
                                           : static_cast<const int64_t*>(in_.data)[r * len_ + i];
      tfidfRow(t_, row_.data(), len_, out_.f32() + r * t_.width);
    }
  }
  std::string implName() const override { return "tfidf"; }

 private:
  TfIdf t_;
  TensorRef in_, out_;
  int64_t rows_ = 1, len_ = 0;
  std::vector<int64_t> row_;
};

Result<std::unique_ptr<Kernel>> createTfIdfKernel(const KernelInit& k) {
  ASC_TRY(TfIdf t, readTfIdf(k.node));
  return std::unique_ptr<Kernel>(new TfIdfKernel(k, std::move(t)));
}

}  // namespace

const OpDef& defTfIdfVectorizer() {
  static const OpDef d =
      OpDef("TfIdfVectorizer")
          .kernel(createTfIdfKernel)
          .nativeDtypes()
          .onnx(9)
          .inferShape(inferTfIdf)
          .summary("n-gram counts (TF), pool weights (IDF) or both (TFIDF) of int sequences");
  return d;
}

}  // namespace asc::ops
