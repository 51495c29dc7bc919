// inplace.cpp: see inplace.h.
#include "om/inplace.h"

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

}  // namespace asc::om
