// pack_weights.cpp: atc's packed weights (asc::packWeights, compile.h): which of the constants
// this CPU's kernels read in a layout of their own (runtime::kernelLayouts) the OM stores in
// that layout, beside or instead of the plain data.
#include "asc/compiler/compile.h"
#include "asc/runtime/session.h"

namespace asc {

Result<size_t> packWeights(ir::Graph& graph, const runtime::SessionOptions& opts) {
  const auto users = graph.users();
  // Only an fp32 constant read by one node, and no graph output: its copy must mean the same
  // bytes to whoever reads it, and a kernel reads fp32 weights.
  auto candidate = [&](const ir::Value& v) {
    if (!v.isConstant() || v.dtype != ir::DType::F32 || graph.isGraphOutput(&v)) return false;
    auto u = users.find(&v);
    return u != users.end() && u->second.size() == 1;
  };
  ASC_TRY(std::vector<runtime::KernelLayout> layouts,
          runtime::kernelLayouts(graph, candidate, opts));
  size_t packed = 0;
  for (runtime::KernelLayout& l : layouts) {
    ir::Value* v = graph.findValue(l.value);
    if (!v || !l.bytes || users.at(v)[0]->name != l.node) continue;
    v->packed = std::move(l.bytes);
    v->packing = std::move(l.packing);
    ++packed;
  }
  return packed;
}

}  // namespace asc
