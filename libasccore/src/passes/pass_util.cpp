// pass_util.cpp: pattern helpers.
#include "pass_util.h"

#include "asc/support/log.h"

#include <cmath>
#include <limits>

namespace asc::passes {

ir::Node* soleUser(const ir::Graph& g, const Users& users, const ir::Value* v) {
  if (g.isGraphOutput(v)) return nullptr;
  auto it = users.find(v);
  if (it == users.end() || it->second.size() != 1) return nullptr;
  ir::Node* n = it->second[0];
  int count = 0;
  for (auto* in : n->inputs) count += in == v;
  return count == 1 ? n : nullptr;
}

ir::Node* producerOf(const ir::Value* v, const char* op) {
  return v && v->producer && v->producer->op_type == op ? v->producer : nullptr;
}

double scalarValue(const ir::Value* v) {
  if (!v || !v->isConstant() || v->numel() != 1) return std::numeric_limits<double>::quiet_NaN();
  return v->tensor().floatAt(0);
}

bool isScalarConst(const ir::Value* v, double want, double tol) {
  double x = scalarValue(v);
  return !std::isnan(x) && std::fabs(x - want) <= tol;
}

ir::Value* otherInput(const ir::Node* n, const ir::Value* v) {
  if (n->inputs.size() != 2) return nullptr;
  if (n->inputs[0] == v) return n->inputs[1];
  if (n->inputs[1] == v) return n->inputs[0];
  return nullptr;
}

void inheritNames(ir::Node* to, const ir::Node* from) {
  to->original_names.insert(to->original_names.end(), from->original_names.begin(),
                            from->original_names.end());
}

void takeOutput(ir::Node* to, ir::Node* from) {
  ir::Value* out = from->outputs[0];
  to->outputs[0] = out;
  out->producer = to;
  out->producer_output = 0;
  from->outputs.clear();
}

void replaceAllUses(ir::Graph& g, const ir::Value* from, ir::Value* to) {
  for (const auto& n : g.nodes())
    for (auto*& in : n->inputs)
      if (in == from) in = to;
  for (auto*& out : g.outputs)
    if (out == from) out = to;
}

bool keepsAny(PassContext& ctx, const std::vector<const ir::Node*>& nodes) {
  for (const ir::Node* n : nodes)
    if (n && ctx.keeps(*n)) {
      ASC_LOG_INFO("op blacklist: {} '{}' kept as it is", n->op_type, n->name);
      return true;
    }
  return false;
}

}  // namespace asc::passes
