// keep_search.cpp: mscompare debug_precision's search for a small --keep_dtype set (see
// precision_debug.h for the order of rounds).
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "asc/debug/precision_debug.h"
#include "asc/ops/registry.h"
#include "debug/harness.h"

namespace asc::debug {
namespace {

// The compiled nodes the mode puts in fp16, in execution order, each named by a source node
// it stands for (its own name, else the first of a fused op's source names): keeping that name
// keeps the whole fused op in fp32 (atc's --keep_dtype matches source names), so a fused
// Conv+Relu is one candidate, not two. Data movement follows its input's type and Cast keeps
// its target, so keeping either changes nothing: they are not candidates.
Result<std::vector<std::string>> candidates(const ir::Graph& g, const DebugOptions& o) {
  ASC_TRY(ir::Graph low, detail::compileUnder(g, o, {}));
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& n : low.nodes()) {
    const ops::OpDef* d = ops::lookup(n->op_type);
    if (n->op_type == "Cast" || (d && d->hasNativeDtypes())) continue;
    bool f16 = false;
    for (const ir::Value* v : n->outputs) f16 |= v && v->dtype == ir::DType::F16;
    if (!f16) continue;
    std::string name;
    if (g.findNode(n->name)) {
      name = n->name;
    } else {
      for (const auto& src : n->original_names)
        if (g.findNode(src)) {
          name = src;
          break;
        }
    }
    if (!name.empty() && seen.insert(name).second) out.push_back(name);
  }
  return out;
}

class Search {
 public:
  Search(const DebugOptions& o, detail::Model& m, std::vector<ir::Tensor> golden, int max_rounds,
         const Progress& progress)
      : o_(o), m_(m), golden_(std::move(golden)), max_rounds_(max_rounds), progress_(progress) {}

  Status run(KeepSearchResult* r) {
    r_ = r;
    ASC_TRY(r->candidates, candidates(m_.graph, o_));
    const size_t n = r->candidates.size();
    ASC_TRY(Round base, eval("baseline", {}));
    if (base.passed || n == 0) {
      r->reached = base.passed;
      r->final_cosine = base.min_cosine;
      if (!base.passed) r->keep.clear();
      return Status::ok();
    }
    std::vector<size_t> all(n);
    for (size_t i = 0; i < n; ++i) all[i] = i;
    ASC_TRY(Round whole, eval("all fp32", all));
    if (!whole.passed) {  // out of reach by keeping nodes: report the best set tried
      r->keep = r->candidates;
      r->final_cosine = whole.min_cosine;
      return Status::ok();
    }
    // The window: the shortest prefix [0, e) that passes, then the shortest [s, e) that does.
    // Nodes outside it are not needed; a run of overflowing layers is found whole this way.
    double pass_cos = whole.min_cosine;
    size_t lo = 0, e = n;  // [0, lo) fails (nothing kept: the baseline), [0, e) passes
    while (e - lo > 1) {
      if (exhausted()) return stop(range(0, e), pass_cos);
      const size_t mid = lo + (e - lo) / 2;
      ASC_TRY(Round b, eval("window end", range(0, mid)));
      if (b.passed) {
        e = mid;
        pass_cos = b.min_cosine;
      } else {
        lo = mid;
      }
    }
    size_t s = 0, hi = e;  // [s, e) passes, [hi, e) fails ([e, e): nothing kept)
    while (hi - s > 1) {
      if (exhausted()) return stop(range(s, e), pass_cos);
      const size_t mid = s + (hi - s) / 2;
      ASC_TRY(Round b, eval("window start", range(mid, e)));
      if (b.passed) {
        s = mid;
        pass_cos = b.min_cosine;
      } else {
        hi = mid;
      }
    }
    // Then drop what the window does not need: try to drop a half of it; where that fails,
    // split the half and try its halves (adaptive group testing), down to single nodes. A
    // needed node costs about log2(w) rounds, a block of unneeded ones one round.
    found_ = range(s, e);
    pass_cos_ = pass_cos;
    const std::vector<size_t> window = found_;
    const size_t half = window.size() / 2;
    if (window.size() > 1) {
      ASC_RETURN_IF_ERROR(
          prune({window.begin(), window.begin() + static_cast<std::ptrdiff_t>(half)}));
      ASC_RETURN_IF_ERROR(
          prune({window.begin() + static_cast<std::ptrdiff_t>(half), window.end()}));
    }
    if (stopped_) return stop(found_, pass_cos_);
    std::vector<size_t> found = found_;
    pass_cos = pass_cos_;
    finish(found, pass_cos);
    return Status::ok();
  }

 private:
  // Drops `chunk` from found_ when the rest still passes, else its halves, recursively.
  Status prune(const std::vector<size_t>& chunk) {
    if (stopped_ || chunk.empty()) return Status::ok();
    if (exhausted()) {
      stopped_ = true;
      return Status::ok();
    }
    std::vector<size_t> without;
    for (size_t i : found_)
      if (std::find(chunk.begin(), chunk.end(), i) == chunk.end()) without.push_back(i);
    if (without.empty()) {  // nothing kept: the baseline, known to fail
    } else {
      ASC_TRY(Round p, eval("prune", without));
      if (p.passed) {
        found_ = std::move(without);
        pass_cos_ = p.min_cosine;
        return Status::ok();
      }
    }
    if (chunk.size() == 1) return Status::ok();  // needed
    const auto mid = chunk.begin() + static_cast<std::ptrdiff_t>(chunk.size() / 2);
    ASC_RETURN_IF_ERROR(prune({chunk.begin(), mid}));
    return prune({mid, chunk.end()});
  }

  std::vector<size_t> found_;
  double pass_cos_ = 0;
  bool stopped_ = false;

  bool exhausted() const { return static_cast<int>(r_->rounds.size()) >= max_rounds_; }

  static std::vector<size_t> range(size_t from, size_t to) {
    std::vector<size_t> s;
    for (size_t i = from; i < to; ++i) s.push_back(i);
    return s;
  }

  void finish(std::vector<size_t> set, double cos) {
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    r_->keep.clear();
    for (size_t i : set) r_->keep.push_back(r_->candidates[i]);
    r_->reached = true;
    r_->final_cosine = cos;
  }

  // At the round limit: the last set that passed.
  Status stop(const std::vector<size_t>& passing, double cos) {
    r_->round_limit = true;
    finish(passing, cos);
    return Status::ok();
  }

  Result<Round> eval(const char* phase, std::vector<size_t> set) {
    const int64_t t0 = detail::nowNs();
    std::sort(set.begin(), set.end());
    Round round;
    round.index = static_cast<int>(r_->rounds.size()) + 1;
    round.phase = phase;
    std::set<std::string> keep;
    for (size_t i : set) {
      round.keep.push_back(r_->candidates[i]);
      keep.insert(r_->candidates[i]);
    }
    ASC_TRY(ir::Graph g, detail::compileUnder(m_.graph, o_, keep));
    ASC_TRY(auto outs, detail::runGraph(std::move(g), m_.inputs, o_.threads));
    round.cosines = detail::cosines(outs, golden_, &round.min_cosine);
    round.passed = round.min_cosine >= o_.target_cosine;
    round.ms = detail::msSince(t0);
    r_->rounds.push_back(round);
    if (progress_) progress_(round);
    return round;
  }

  const DebugOptions& o_;
  detail::Model& m_;
  std::vector<ir::Tensor> golden_;
  int max_rounds_;
  const Progress& progress_;
  KeepSearchResult* r_ = nullptr;
};

}  // namespace

Result<KeepSearchResult> searchKeepSet(const DebugOptions& options, int max_rounds,
                                       const Progress& progress) {
  const int64_t t0 = detail::nowNs();
  if (max_rounds < 2)
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --max_rounds is invalid. Reason: the search needs "
                         "at least 2 rounds (nothing kept, everything kept)",
                         max_rounds);
  ASC_TRY(detail::Model m, detail::openModel(options));
  ASC_TRY(auto golden, detail::runGraph(m.graph.clone(), m.inputs, options.threads));
  KeepSearchResult r;
  Search s(options, m, std::move(golden), max_rounds, progress);
  ASC_RETURN_IF_ERROR(s.run(&r));
  r.seconds = detail::msSince(t0) / 1000;
  return r;
}

}  // namespace asc::debug
