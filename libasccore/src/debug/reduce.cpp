// reduce.cpp: mscompare debug_reduce: the smallest connected cut of the ONNX model that still
// diverges under the precision mode, with the fp32 run's values at its border (see
// precision_debug.h).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "asc/debug/precision_debug.h"
#include "asc/frontend/onnx.h"
#include "asc/support/file.h"
#include "debug/harness.h"

namespace asc::debug {
namespace {

constexpr size_t kMaxStarts = 4;  // diverging nodes tried as the cut's end

class Reducer {
 public:
  Reducer(const DebugOptions& o, const frontend::OnnxGraphRef& onnx, const ir::Graph& imported,
          const detail::Values& golden, const Progress& progress, ReduceResult* r)
      : o_(o), onnx_(onnx), imported_(imported), golden_(golden), progress_(progress), r_(r) {
    for (size_t i = 0; i < onnx.nodes.size(); ++i)
      for (const auto& out : onnx.nodes[i].outputs)
        if (!out.empty()) producer_[out] = i;
  }

  // A value may feed the cut from outside when the fp32 run computed it; constants the importer
  // folded (shape arithmetic) are pulled in with their producers, so they fold again.
  bool feedable(const std::string& v) const {
    const ir::Value* iv = imported_.findValue(v);
    return golden_.count(v) && iv && !iv->isConstant();
  }

  // Closes `cut` over producers of values that cannot be fed; returns the border values.
  std::vector<std::string> close(std::set<size_t>* cut) const {
    for (;;) {
      std::vector<std::string> border;
      std::set<size_t> more;
      std::set<std::string> produced, seen;
      for (size_t i : *cut)
        for (const auto& o : onnx_.nodes[i].outputs) produced.insert(o);
      for (size_t i : *cut)
        for (const auto& in : onnx_.nodes[i].inputs) {
          if (in.empty() || produced.count(in) || !seen.insert(in).second) continue;
          auto p = producer_.find(in);
          if (p == producer_.end()) {  // a graph input or an initializer
            const ir::Value* iv = imported_.findValue(in);
            if (golden_.count(in) && iv && !iv->isConstant()) border.push_back(in);
            continue;
          }
          if (feedable(in) && onnx_.nodes[p->second].op_type != "Constant")
            border.push_back(in);
          else
            more.insert(p->second);
        }
      if (more.empty()) return border;
      cut->insert(more.begin(), more.end());
    }
  }

  // Compiles and runs the cut under the mode; true when it diverges.
  Result<bool> tryCut(const std::set<size_t>& cut, size_t end, const char* phase) {
    const int64_t t0 = detail::nowNs();
    std::set<size_t> nodes = cut;
    const std::vector<std::string> border = close(&nodes);
    std::vector<frontend::OnnxBorder> ins, outs;
    std::vector<ir::Tensor> in_values, out_golden;
    for (const auto& b : border) {
      const ir::Tensor& t = golden_.at(b);
      ins.push_back({b, t.dtype, t.shape});
      in_values.push_back(t);
    }
    for (const auto& o : onnx_.nodes[end].outputs) {
      auto it = golden_.find(o);
      if (o.empty() || it == golden_.end()) continue;
      outs.push_back({o, it->second.dtype, it->second.shape});
      out_golden.push_back(it->second);
    }
    ASC_TRY(std::string bytes,
            frontend::extractOnnxSubgraph(o_.model, std::vector<size_t>(nodes.begin(), nodes.end()),
                                          ins, outs));
    ASC_TRY(ir::Graph g, frontend::importOnnxBytes(bytes.data(), bytes.size(), dirName(o_.model)));
    ASC_TRY(ir::Graph low, detail::compileUnder(g, o_, {}));
    ASC_TRY(auto got, detail::runGraph(std::move(low), in_values, o_.threads));
    Round round;
    round.index = static_cast<int>(r_->rounds.size()) + 1;
    round.phase = phase;
    for (size_t i : nodes) round.keep.push_back(onnx_.nodes[i].name);
    round.cosines = detail::cosines(got, out_golden, &round.min_cosine);
    round.passed = round.min_cosine < o_.target_cosine;
    round.ms = detail::msSince(t0);
    r_->rounds.push_back(round);
    if (progress_) progress_(round);
    if (round.passed) {
      r_->onnx = std::move(bytes);
      r_->nodes = round.keep;
      r_->input_names = border;
      r_->inputs = std::move(in_values);
      r_->output_names.clear();
      for (const auto& b : outs) r_->output_names.push_back(b.name);
      r_->goldens = std::move(out_golden);
      r_->cosines = round.cosines;
    }
    return round.passed;
  }

  // Grows a cut backwards from `end`, a level of producers at a time, until it diverges.
  Result<bool> growFrom(size_t end) {
    std::set<size_t> cut{end};
    for (;;) {
      ASC_TRY(bool diverges, tryCut(cut, end, cut.size() == 1 ? "end node" : "grow"));
      if (diverges) return true;
      std::set<size_t> closed = cut;
      const auto border = close(&closed);
      std::set<size_t> next = closed;
      for (const auto& b : border)
        if (auto p = producer_.find(b); p != producer_.end()) next.insert(p->second);
      if (next == closed) return false;  // reached the model inputs without diverging
      cut = std::move(next);
    }
  }

 private:
  const DebugOptions& o_;
  const frontend::OnnxGraphRef& onnx_;
  const ir::Graph& imported_;
  const detail::Values& golden_;
  const Progress& progress_;
  ReduceResult* r_;
  std::map<std::string, size_t> producer_;
};

}  // namespace

Result<ReduceResult> reduceDivergence(const DebugOptions& options, const Progress& progress) {
  const int64_t t0 = detail::nowNs();
  ASC_TRY(detail::Model m, detail::openModel(options));
  ASC_TRY(frontend::OnnxGraphRef onnx, frontend::describeOnnx(options.model));
  detail::Values golden, low;
  ASC_RETURN_IF_ERROR(
      detail::runGraph(m.graph.clone(), m.inputs, options.threads, &golden).status());
  ASC_TRY(ir::Graph compiled, detail::compileUnder(m.graph, options, {}));
  ASC_RETURN_IF_ERROR(
      detail::runGraph(std::move(compiled), m.inputs, options.threads, &low).status());
  ReduceResult r;
  // The nodes whose outputs (where the compiled model still has them) fall below the target.
  std::vector<size_t> starts;
  for (size_t i = 0; i < onnx.nodes.size() && starts.size() < kMaxStarts; ++i)
    for (const auto& o : onnx.nodes[i].outputs) {
      auto g = golden.find(o);
      auto l = low.find(o);
      if (o.empty() || g == golden.end() || l == low.end() || !ir::isFloat(g->second.dtype))
        continue;
      if (detail::cosine(l->second, g->second) < options.target_cosine) {
        starts.push_back(i);
        break;
      }
    }
  Reducer reducer(options, onnx, m.graph, golden, progress, &r);
  for (size_t end : starts) {
    ASC_TRY(bool found, reducer.growFrom(end));
    if (found) {
      r.first_diverging = onnx.nodes[end].name;
      r.diverges = true;
      break;
    }
  }
  if (!r.diverges && !starts.empty()) r.first_diverging = onnx.nodes[starts.front()].name;
  r.seconds = detail::msSince(t0) / 1000;
  return r;
}

}  // namespace asc::debug
