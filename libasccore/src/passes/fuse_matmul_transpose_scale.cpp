// fuse_matmul_transpose_scale.cpp: the score half of attention as exporters write it,
// MatMul(Q / sqrt(d), Transpose(K, perm=[..., -1, -2])) or MatMul(Q, Kt) * scale, becomes one
// MatMul: B is read through transposed strides (attribute transpose_x2, CANN MatMulV2's name)
// and every scalar factor becomes the primitive's output scale (attribute alpha). The Softmax
// after it stays a node: oneDNN 2.6 has no fused attention primitive to hand it to.
#include <fmt/format.h>

#include <cmath>

#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Node* mm = nullptr;
  ir::Node* a_scale = nullptr;    // Mul/Div by a scalar on A
  ir::Node* b_scale = nullptr;    // Mul/Div by a scalar on B (before any transpose)
  ir::Node* b_trans = nullptr;    // Transpose of B's last two dims
  ir::Node* out_scale = nullptr;  // Mul/Div by a scalar on the product
  float alpha = 1.f;
  std::vector<const ir::Node*> involved() const {
    return {mm, a_scale, b_scale, b_trans, out_scale};
  }
};

// For y = x * c, c * x or x / c with c a one-element float constant and y shaped like x:
// the scale and x. Returns false otherwise.
bool scalarScale(const ir::Node* n, const ir::Value* y, ir::Value** x, float* scale) {
  if (!n || (n->op_type != "Mul" && n->op_type != "Div") || n->inputs.size() != 2) return false;
  for (int side = 0; side < 2; ++side) {
    if (n->op_type == "Div" && side == 0) continue;  // c / x is not a scale
    ir::Value* c = n->inputs[side];
    ir::Value* other = n->inputs[1 - side];
    if (!c || !other || !c->isConstant() || c->numel() != 1 || c->dtype != ir::DType::F32) continue;
    if (other->isConstant() || other->shape != y->shape || other->dtype != ir::DType::F32) continue;
    const double v = scalarValue(c);
    if (!std::isfinite(v) || (n->op_type == "Div" && v == 0)) continue;
    *x = other;
    *scale = static_cast<float>(n->op_type == "Div" ? 1.0 / v : v);
    return true;
  }
  return false;
}

bool swapsLastTwo(const ir::Node& t) {
  auto perm = t.attrs.getInts("perm");
  const size_t r = perm.size();
  if (r < 2 || t.inputs[0]->shape.size() != r) return false;
  for (size_t i = 0; i + 2 < r; ++i)
    if (perm[i] != static_cast<int64_t>(i)) return false;
  return perm[r - 2] == static_cast<int64_t>(r - 1) && perm[r - 1] == static_cast<int64_t>(r - 2);
}

bool match(const ir::Graph& g, const Users& users, ir::Node& n, Match* m) {
  if (n.op_type != "MatMul" || n.inputs.size() != 2 || n.attrs.has("alpha") ||
      n.attrs.has("transpose_x2") || n.attrs.has("activation"))
    return false;
  if (n.inputs[0]->dtype != ir::DType::F32 || n.inputs[0]->shape.size() < 2 ||
      n.inputs[1]->shape.size() < 2)
    return false;
  Match r;
  r.mm = &n;
  ir::Value* x = nullptr;
  float s = 1.f;
  ir::Node* pa = n.inputs[0]->producer;
  if (pa && soleUser(g, users, n.inputs[0]) == &n && scalarScale(pa, n.inputs[0], &x, &s)) {
    r.a_scale = pa;
    r.alpha *= s;
  }
  ir::Value* b = n.inputs[1];
  ir::Node* pb = b->producer;
  if (pb && pb->op_type == "Transpose" && soleUser(g, users, b) == &n && swapsLastTwo(*pb) &&
      !pb->inputs[0]->isConstant()) {
    r.b_trans = pb;
    b = pb->inputs[0];
    pb = b->producer;
  }
  if (pb && soleUser(g, users, b) == (r.b_trans ? r.b_trans : &n) && scalarScale(pb, b, &x, &s)) {
    r.b_scale = pb;
    r.alpha *= s;
  }
  ir::Node* user = soleUser(g, users, n.outputs[0]);
  if (user && scalarScale(user, user->outputs[0], &x, &s) && x == n.outputs[0]) {
    r.out_scale = user;
    r.alpha *= s;
  }
  if (!r.a_scale && !r.b_scale && !r.b_trans && !r.out_scale) return false;
  *m = r;
  return true;
}

ir::Value* scaledInput(const ir::Node* scale) {
  for (ir::Value* v : scale->inputs)
    if (!v->isConstant()) return v;
  return nullptr;
}

void rewrite(const Match& m, PassContext& ctx) {
  ir::Node* mm = m.mm;
  std::vector<std::string> parts;
  // Source names in execution order: what ran before the MatMul first, the output scale last
  // (a dump of the fused op compares with the last one).
  std::vector<std::string> names;
  auto take = [&](ir::Node* n, const char* what) {
    if (!n) return;
    names.insert(names.end(), n->original_names.begin(), n->original_names.end());
    parts.push_back(fmt::format("{} {} '{}'", what, n->op_type, n->name));
  };
  take(m.a_scale, "A");
  take(m.b_scale, "B");
  take(m.b_trans, "B");
  names.insert(names.end(), mm->original_names.begin(), mm->original_names.end());
  if (m.a_scale) {
    mm->inputs[0] = scaledInput(m.a_scale);
    m.a_scale->outputs.clear();
  }
  ir::Value* b = mm->inputs[1];
  if (m.b_trans) {
    b = m.b_trans->inputs[0];
    m.b_trans->outputs.clear();
    mm->attrs.set("transpose_x2", int64_t{1});
  }
  if (m.b_scale) {
    b = scaledInput(m.b_scale);
    m.b_scale->outputs.clear();
  }
  mm->inputs[1] = b;
  if (m.out_scale) {
    take(m.out_scale, "out");
    takeOutput(mm, m.out_scale);
  }
  if (m.alpha != 1.f) mm->attrs.set("alpha", m.alpha);
  mm->original_names = names;
  ctx.log.push_back(fmt::format("fuse-matmul-transpose-scale: MatMul '{}' takes {} (alpha {})",
                                mm->name, fmt::join(parts, ", "), m.alpha));
}

}  // namespace

Status fuseMatMulTransposeScale(ir::Graph& g, PassContext& ctx) {
  return forEachMatch<Match>(g, ctx, match,
                             [](ir::Graph&, Match& m, PassContext& c) { rewrite(m, c); });
}

}  // namespace asc::passes
