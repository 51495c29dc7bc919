// activation_plan.cpp: the OM's activation arena. Every node output's lifetime in execution
// order, the in-place groups (a Reshape-like op's output is its input's bytes; a Conv whose
// fused residual dies at it writes into the residual's buffer), then one memory plan over the
// groups; and planActivationMemory, atc's summary of it.
#include <algorithm>
#include <unordered_set>

#include "asc/om/om_file.h"
#include "asc/ops/kernel.h"
#include "asc/ops/registry.h"
#include "format.h"
#include "om/activation_plan.h"
#include "om/inplace.h"

namespace asc::om {

ActivationPlan planActivations(const ir::Graph& g, bool reuse) {
  std::unordered_map<const ir::Value*, int> last_use;
  const int end = static_cast<int>(g.nodes().size());
  for (int i = 0; i < end; ++i)
    for (auto* in : g.nodes()[i]->inputs)
      if (in) last_use[in] = i;
  for (auto* out : g.outputs) last_use[out] = end;
  const ReaderIndex readers = readerIndex(g);
  // Concats whose output is to be the first bytes of a later one's (om::prefixHost), by the
  // later one's index.
  std::unordered_map<size_t, std::vector<const ir::Node*>> prefixes;
  std::unordered_set<const ir::Value*> graph_inputs(g.inputs.begin(), g.inputs.end());
  std::unordered_map<const ir::Value*, size_t> group_of;  // value -> its buffer request
  std::unordered_map<const ir::Value*, uint64_t> within;  // value -> its offset in the buffer
  std::vector<BufferRequest> reqs;
  std::vector<std::vector<const ir::Value*>> members;  // per buffer request
  std::vector<const ir::Value*> values;
  auto lastOf = [&](const ir::Value* v, int i) {
    auto it = last_use.find(v);
    return it == last_use.end() ? i : it->second;
  };
  // The buffer request holding v, or -1 (a constant, a model input: no arena buffer).
  auto bufferOf = [&](const ir::Value* v) -> int {
    auto it = group_of.find(v);
    if (v->isConstant() || graph_inputs.count(v) || it == group_of.end()) return -1;
    return static_cast<int>(it->second);
  };
  for (int i = 0; i < end; ++i) {
    const ir::Node& n = *g.nodes()[i];
    const ops::OpDef* d = ops::lookup(n.op_type);
    // The input whose buffer output 0 may share, if any: a Reshape-like op reads its input's
    // bytes as they are; an accumulating op (a Conv over its fused residual) writes into them,
    // by the rule the runtime follows too (om/inplace.h).
    const ir::Value* share = nullptr;
    if (reuse && n.outputs.size() == 1 && !n.inputs.empty() && n.inputs[0] && d &&
        d->aliasesInputBytes() && n.inputs[0]->byteSize() == n.outputs[0]->byteSize())
      share = n.inputs[0];
    if (share && (share->isConstant() || graph_inputs.count(share) || !group_of.count(share)))
      share = nullptr;
    if (reuse) {
      BufferQueries q;
      q.buffer_of = bufferOf;
      q.used_after = [&](int buffer, size_t node) {
        return reqs[buffer].last > static_cast<int>(node);
      };
      const int k = inPlaceInput(n, static_cast<size_t>(i), q);
      if (k >= 0) share = n.inputs[k];
    }
    for (auto* v : n.outputs) {
      if (share && v == n.outputs[0]) {
        const size_t gid = group_of[share];
        reqs[gid].last = std::max(reqs[gid].last, lastOf(v, i));
        group_of[v] = gid;
        within[v] = within[share];
        members[gid].push_back(v);
        values.push_back(v);
        continue;
      }
      group_of[v] = reqs.size();
      reqs.push_back({v->byteSize(), i, lastOf(v, i)});
      members.push_back({v});
      values.push_back(v);
    }
    // Inputs joined into an output that is their bytes one after another (Concat), by the rule
    // the runtime follows too (om/inplace.h): each input's buffer, holding just that input,
    // becomes a part of the output's, living from the input's producer to the output's last use.
    JoinQueries jq;
    jq.buffer_of = bufferOf;
    jq.last_read = [&](const ir::Value* v) { return static_cast<size_t>(lastOf(v, i)); };
    if (reuse && n.outputs.size() == 1 && n.outputs[0] && group_of.count(n.outputs[0])) {
      const size_t out_group = group_of[n.outputs[0]];
      std::vector<uint64_t> at(n.inputs.size(), 0);
      uint64_t sum = 0;
      for (size_t k = 0; k < n.inputs.size(); ++k) {
        at[k] = sum;
        sum += n.inputs[k] ? n.inputs[k]->byteSize() : 0;
      }
      if (sum == n.outputs[0]->byteSize())
        for (size_t k : joinedInputs(n, ops::Layout::Plain, jq)) {
          const ir::Value* in = n.inputs[k];
          const size_t gid = group_of[in];
          if (gid == out_group || reqs[gid].bytes != in->byteSize() || within[in] != 0) continue;
          for (const ir::Value* m : members[gid]) {
            group_of[m] = out_group;
            within[m] += at[k];
            members[out_group].push_back(m);
          }
          members[gid].clear();
          reqs[out_group].first = std::min(reqs[out_group].first, reqs[gid].first);
          reqs[out_group].last = std::max(reqs[out_group].last, reqs[gid].last);
          reqs[gid].bytes = 0;  // an empty request from now on
        }
      // Earlier Concats of this one's first inputs, now that those are joined: their outputs
      // are this output's first bytes (the rule the runtime follows too, om/inplace.h).
      auto pending = prefixes.find(static_cast<size_t>(i));
      if (pending != prefixes.end())
        for (const ir::Node* p : pending->second) {
          const ir::Value* pv = p->outputs[0];
          const size_t pg = group_of[pv];
          bool in_place = pg != out_group && members[pg].size() == 1 && within[pv] == 0 &&
                          reqs[pg].bytes == pv->byteSize();
          for (size_t k = 0; in_place && k < p->inputs.size(); ++k)
            in_place = group_of.count(p->inputs[k]) && group_of[p->inputs[k]] == out_group &&
                       within[p->inputs[k]] == at[k];
          if (!in_place) continue;
          group_of[pv] = out_group;
          members[out_group].push_back(pv);
          members[pg].clear();
          reqs[out_group].first = std::min(reqs[out_group].first, reqs[pg].first);
          reqs[out_group].last = std::max(reqs[out_group].last, reqs[pg].last);
          reqs[pg].bytes = 0;
        }
    }
    if (reuse && n.outputs.size() == 1 && n.outputs[0] && group_of.count(n.outputs[0])) {
      PrefixQueries pq;
      pq.join = jq;
      pq.graph = &g;
      pq.readers = &readers;
      const int host = prefixHost(n, static_cast<size_t>(i), ops::Layout::Plain, pq);
      if (host >= 0) prefixes[static_cast<size_t>(host)].push_back(&n);
    }
  }
  ActivationPlan ap;
  ap.plan = planMemory(reqs, kActivationAlign, reuse);
  for (const ir::Value* v : values) ap.offsets[v] = ap.plan.offsets[group_of[v]] + within[v];
  return ap;
}

MemoryPlanSummary planActivationMemory(const ir::Graph& g, bool reuse) {
  ActivationPlan ap = planActivations(g, reuse);
  MemoryPlanSummary s;
  s.arena_bytes = ap.plan.arena_bytes;
  s.peak_live_bytes = ap.plan.peak_live_bytes;
  std::unordered_set<const ir::Value*> seen;
  for (const auto& n : g.nodes())
    for (auto* in : n->inputs)
      if (in && in->isConstant() && seen.insert(in).second) s.weight_bytes += in->byteSize();
  return s;
}

}  // namespace asc::om
