// fuse_conv_activation.cpp: Conv, ConvTranspose, Gemm or MatMul (or BatchNormalization, for Relu)
// whose only user is an activation takes the activation as a post-op (attribute "activation" and
// its parameters); the activation node goes away. oneDNN applies it while the output is still in
// registers.
#include <fmt/format.h>

#include "asc/ops/registry.h"
#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Node* producer;
  ir::Node* act;
  std::vector<const ir::Node*> involved() const { return {producer, act}; }
};

// The producer's OpDef says which activations its kernel applies as a post-op, the activation's
// OpDef that it can be one; a plugin op that says so fuses like an in-tree one.
bool isFusableActivation(const ir::Node& n) {
  const ops::OpDef* d = ops::lookup(n.op_type);
  return d && d->isFusableActivation() && n.inputs.size() == 1;  // Clip: min/max as attributes
}

bool match(const ir::Graph& g, const Users& users, ir::Node& n, Match* m) {
  const ops::OpDef* d = ops::lookup(n.op_type);
  const ops::ActivationPostOps post = d ? d->activationPostOps() : ops::ActivationPostOps::None;
  if (post == ops::ActivationPostOps::None) return false;
  if (n.attrs.has("activation") || n.outputs.size() != 1) return false;
  ir::Node* act = soleUser(g, users, n.outputs[0]);
  if (!act || !isFusableActivation(*act)) return false;
  if (post == ops::ActivationPostOps::ReluOnly && act->op_type != "Relu") return false;
  if (act->outputs.size() != 1 || act->outputs[0]->dtype != n.outputs[0]->dtype) return false;
  *m = {&n, act};
  return true;
}

void rewrite(const Match& m, PassContext& ctx) {
  ir::Node* p = m.producer;
  const ir::Node* a = m.act;
  p->attrs.set("activation", a->op_type);
  if (a->op_type == "LeakyRelu")
    p->attrs.set("activation_alpha", a->attrs.getFloat("alpha", 0.01f));
  if (a->op_type == "Swish") p->attrs.set("activation_alpha", a->attrs.getFloat("alpha", 1.f));
  if (a->op_type == "HardSigmoid") {
    p->attrs.set("activation_alpha", a->attrs.getFloat("alpha", 0.2f));
    p->attrs.set("activation_beta", a->attrs.getFloat("beta", 0.5f));
  }
  if (a->op_type == "Gelu")
    p->attrs.set("activation_approximate", a->attrs.getString("approximate", "none"));
  if (a->op_type == "Clip") {
    if (a->attrs.has("min")) p->attrs.set("activation_min", a->attrs.getFloat("min", 0));
    if (a->attrs.has("max")) p->attrs.set("activation_max", a->attrs.getFloat("max", 0));
  }
  ctx.log.push_back(fmt::format("fuse-conv-activation: {} '{}' + {} '{}'", p->op_type, p->name,
                                a->op_type, a->name));
  inheritNames(p, a);
  takeOutput(p, m.act);
}

}  // namespace

Status fuseConvActivation(ir::Graph& g, PassContext& ctx) {
  return forEachMatch<Match>(g, ctx, match,
                             [](ir::Graph& gr, Match& m, PassContext& c) { rewrite(m, c); });
}

}  // namespace asc::passes
