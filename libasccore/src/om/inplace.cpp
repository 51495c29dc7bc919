// inplace.cpp: see inplace.h.
#include "om/inplace.h"

#include <algorithm>

#include "asc/ops/registry.h"

namespace asc::om {

int inPlaceInput(const ir::Node& n, size_t node_index, const BufferQueries& q) {
  const ops::OpDef* d = ops::lookup(n.op_type);
  const int k = d ? d->accumulateInput() : -1;
  if (k < 0 || n.outputs.size() != 1 || static_cast<size_t>(k) >= n.inputs.size()) return -1;
  const ir::Value* in = n.inputs[k];
  const ir::Value* out = n.outputs[0];
  if (!in || in->isConstant() || in->shape != out->shape || in->dtype != out->dtype) return -1;
  const int buffer = q.buffer_of(in);
  if (buffer < 0 || q.used_after(buffer, node_index)) return -1;
  for (size_t i = 0; i < n.inputs.size(); ++i)  // the op must not read what it overwrites
    if (static_cast<int>(i) != k && n.inputs[i] && q.buffer_of(n.inputs[i]) == buffer) return -1;
  return k;
}

std::vector<size_t> joinedInputs(const ir::Node& n, ops::Layout layout, const JoinQueries& q) {
  std::vector<size_t> joined;
  const ops::OpDef* d = ops::lookup(n.op_type);
  if (!d || !d->joinsInputsFn() || n.outputs.size() != 1 || !n.outputs[0] ||
      !d->joinsInputsFn()(n, layout))
    return joined;
  const size_t out_last = q.last_read(n.outputs[0]);
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    const ir::Value* in = n.inputs[i];
    if (!in || in->isConstant() || q.buffer_of(in) < 0 || q.last_read(in) > out_last) continue;
    size_t uses = 0;
    for (const ir::Value* other : n.inputs) uses += other == in;
    if (uses == 1) joined.push_back(i);
  }
  return joined;
}

ReaderIndex readerIndex(const ir::Graph& g) {
  ReaderIndex r;
  for (size_t i = 0; i < g.nodes().size(); ++i)
    for (const ir::Value* v : g.nodes()[i]->inputs)
      if (v && (r[v].empty() || r[v].back() != i)) r[v].push_back(i);
  return r;
}

int prefixHost(const ir::Node& n, size_t node_index, ops::Layout layout, const PrefixQueries& q) {
  const ops::OpDef* d = ops::lookup(n.op_type);
  if (!d || !d->joinsInputsFn() || n.outputs.size() != 1 || !n.outputs[0] || n.inputs.empty() ||
      !n.inputs[0] || !d->joinsInputsFn()(n, layout))
    return -1;
  const size_t k = n.inputs.size();
  const size_t out_last = q.join.last_read(n.outputs[0]);
  int host = -1;
  auto readers = q.readers->find(n.inputs[0]);
  if (readers == q.readers->end()) return -1;
  for (size_t j : readers->second) {
    if (j <= node_index) continue;
    const ir::Node& m = *q.graph->nodes()[j];
    const ops::OpDef* md = ops::lookup(m.op_type);
    if (!md || !md->joinsInputsFn() || m.outputs.size() != 1 || !m.outputs[0] ||
        m.inputs.size() < k || !md->joinsInputsFn()(m, layout) ||
        q.join.last_read(m.outputs[0]) < out_last)
      continue;
    if (!std::equal(n.inputs.begin(), n.inputs.end(), m.inputs.begin())) continue;
    const std::vector<size_t> joined = joinedInputs(m, layout, q.join);
    size_t first = 0;  // how many of m's first inputs it joins
    while (first < joined.size() && joined[first] == first) ++first;
    if (first >= k) host = static_cast<int>(j);
  }
  return host;
}

}  // namespace asc::om
