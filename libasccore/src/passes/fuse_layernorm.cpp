// fuse_layernorm.cpp: LayerNorm as opset < 17 exporters decompose it,
//   mean = ReduceMean(x, [-1]); d = x - mean; var = ReduceMean(Pow(d, 2), [-1]);
//   y = d / Sqrt(var + eps) [* gamma] [+ beta]
// becomes LayerNormalization(x, gamma, beta, axis=-1, epsilon=eps).
#include <fmt/format.h>

#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Value* x;
  ir::Value* gamma = nullptr;
  ir::Value* beta = nullptr;
  float eps;
  std::vector<ir::Node*> nodes;  // the last one produces y
  std::vector<const ir::Node*> involved() const { return {nodes.begin(), nodes.end()}; }
};

bool lastAxisMean(const ir::Node* n, int64_t rank) {
  if (!n || n->op_type != "ReduceMean" || n->attrs.getInt("keepdims", 1) != 1) return false;
  auto axes = n->attrs.getInts("axes");
  return axes.size() == 1 && (axes[0] == rank - 1 || axes[0] == -1);
}

bool match(const ir::Graph& g, const Users& users, ir::Node& r1, Match* m) {
  if (r1.op_type != "ReduceMean") return false;
  ir::Value* x = r1.inputs[0];
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  if (rank < 1 || !lastAxisMean(&r1, rank)) return false;
  ir::Node* sub = soleUser(g, users, r1.outputs[0]);
  if (!sub || sub->op_type != "Sub" || sub->inputs[0] != x || sub->inputs[1] != r1.outputs[0])
    return false;
  auto it = users.find(sub->outputs[0]);
  if (it == users.end() || it->second.size() != 2 || g.isGraphOutput(sub->outputs[0])) return false;
  ir::Node* pow = nullptr;
  ir::Node* div = nullptr;
  for (ir::Node* u : it->second) {
    if (u->op_type == "Pow" && u->inputs[0] == sub->outputs[0] && isScalarConst(u->inputs[1], 2.0))
      pow = u;
    else if (u->op_type == "Div" && u->inputs[0] == sub->outputs[0])
      div = u;
  }
  if (!pow || !div) return false;
  ir::Node* r2 = soleUser(g, users, pow->outputs[0]);
  if (!lastAxisMean(r2, rank)) return false;
  ir::Node* add = soleUser(g, users, r2->outputs[0]);
  if (!add || add->op_type != "Add") return false;
  double eps = scalarValue(otherInput(add, r2->outputs[0]));
  if (!(eps >= 0)) return false;
  ir::Node* sqrt = soleUser(g, users, add->outputs[0]);
  if (!sqrt || sqrt->op_type != "Sqrt" || soleUser(g, users, sqrt->outputs[0]) != div ||
      div->inputs[1] != sqrt->outputs[0])
    return false;
  m->x = x;
  m->eps = static_cast<float>(eps);
  m->nodes = {&r1, sub, pow, r2, add, sqrt, div};
  const int64_t n = x->shape.back();
  auto affine = [&](const ir::Value* v) {
    return v && v->isConstant() && v->dtype == x->dtype && v->numel() == n &&
           (v->shape.size() == 1 || v->shape.back() == n);
  };
  ir::Node* mul = soleUser(g, users, div->outputs[0]);
  if (mul && mul->op_type == "Mul" && affine(otherInput(mul, div->outputs[0]))) {
    m->gamma = otherInput(mul, div->outputs[0]);
    m->nodes.push_back(mul);
    ir::Node* badd = soleUser(g, users, mul->outputs[0]);
    if (badd && badd->op_type == "Add" && affine(otherInput(badd, mul->outputs[0]))) {
      m->beta = otherInput(badd, mul->outputs[0]);
      m->nodes.push_back(badd);
    }
  }
  return true;
}

ir::Value* vector1d(ir::Graph& g, ir::Value* v) {
  if (v->shape.size() == 1) return v;
  ir::Tensor t = v->tensor();
  t.shape = {v->numel()};
  return g.addConstant(v->name + "_1d", t);
}

void rewrite(ir::Graph& g, Match& m, PassContext& ctx) {
  const int64_t n = m.x->shape.back();
  ir::Value* gamma = m.gamma ? vector1d(g, m.gamma) : nullptr;
  if (!gamma) {
    std::vector<float> ones(static_cast<size_t>(n), 1.f);
    gamma = g.addConstant(
        m.nodes.front()->name + "_ones",
        ir::Tensor{ir::DType::F32, {n}, ir::Blob::copyOf(ones.data(), ones.size() * 4)});
  }
  std::vector<ir::Value*> ins = {m.x, gamma};
  if (m.beta) ins.push_back(vector1d(g, m.beta));
  ir::Node* last = m.nodes.back();
  ir::Node* ln = g.addNode("LayerNormalization", last->name + "_layernorm", ins, {nullptr});
  ln->attrs.set("axis", int64_t{-1});
  ln->attrs.set("epsilon", m.eps);
  for (ir::Node* p : m.nodes) inheritNames(ln, p);
  ctx.log.push_back(fmt::format("fuse-layernorm: {} nodes from '{}' -> LayerNormalization '{}'",
                                m.nodes.size(), m.nodes.front()->name, ln->name));
  takeOutput(ln, last);
  for (ir::Node* p : m.nodes) p->outputs.clear();
}

}  // namespace

Status fuseLayerNorm(ir::Graph& g, PassContext& ctx) {
  return forEachMatch<Match>(
      g, ctx,
      [](const ir::Graph& gr, const Users& u, ir::Node& n, Match* m) {
        return match(gr, u, n, m) && m->x->dtype == ir::DType::F32;
      },
      [](ir::Graph& gr, Match& m, PassContext& c) { rewrite(gr, m, c); });
}

}  // namespace asc::passes
